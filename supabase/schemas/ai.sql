-- The AI assistant: provider settings, text quota and the knowledge base.
--
-- Part of supabase/schemas/, the database as it is now (supabase/CONTEXT.md says how to change it).
-- Objects may refer to objects in other files: the files are applied in stages, not in order.

-- ---------------------------------------------------------------------------------------------
-- AI providers, one row per category.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.ai_provider_settings (
    category text NOT NULL,
    provider text NOT NULL,
    model text NOT NULL,
    base_url text,
    api_key_mask text,
    updated_by uuid,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT ai_provider_settings_base_url_check CHECK (((base_url IS NULL) OR ((char_length(base_url) <= 500) AND (base_url ~
        '^https?://[^\s/?#]+([/?#]\S*)?$'::text)))),
    CONSTRAINT ai_provider_settings_category_check CHECK ((category = ANY (ARRAY['image'::text, 'text'::text, 'music'::text,
        'inference'::text]))),
    CONSTRAINT ai_provider_settings_model_check CHECK (((char_length(model) >= 1) AND (char_length(model) <= 60))),
    CONSTRAINT ai_provider_settings_provider_check CHECK (((char_length(provider) >= 1) AND (char_length(provider) <= 60))),
    CONSTRAINT ai_provider_settings_pkey PRIMARY KEY (category),
    CONSTRAINT ai_provider_settings_updated_by_fkey FOREIGN KEY (updated_by) REFERENCES auth.users(id) ON DELETE SET NULL
);
ALTER TABLE public.ai_provider_settings ENABLE ROW LEVEL SECURITY;
CREATE POLICY "admins read ai settings" ON public.ai_provider_settings FOR SELECT TO authenticated USING (( SELECT
    public.is_admin() AS is_admin));

-- ai-text makes the server call the administrator's paid provider, so it is
-- metered: a daily quota per user and one for the whole site (UTC days), counted atomically in
-- SQL by public.ai_text_take(), which only the server (service role) calls, before the provider.
CREATE TABLE public.ai_text_quota (
    id boolean DEFAULT true NOT NULL,
    per_user_daily integer DEFAULT 30 NOT NULL,
    global_daily integer DEFAULT 1000 NOT NULL,
    CONSTRAINT ai_text_quota_global_daily_check CHECK (((global_daily >= 0) AND (global_daily <= 10000000))),
    CONSTRAINT ai_text_quota_id_check CHECK (id),
    CONSTRAINT ai_text_quota_per_user_daily_check CHECK (((per_user_daily >= 0) AND (per_user_daily <= 100000))),
    CONSTRAINT ai_text_quota_pkey PRIMARY KEY (id)
);
ALTER TABLE public.ai_text_quota ENABLE ROW LEVEL SECURITY;

CREATE TABLE public.ai_text_usage (
    day date NOT NULL,
    user_id uuid NOT NULL,
    calls integer NOT NULL,
    CONSTRAINT ai_text_usage_calls_check CHECK ((calls >= 0)),
    CONSTRAINT ai_text_usage_pkey PRIMARY KEY (day, user_id),
    CONSTRAINT ai_text_usage_user_id_fkey FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE
);
ALTER TABLE public.ai_text_usage ENABLE ROW LEVEL SECURITY;

CREATE TABLE public.ai_text_usage_total (
    day date NOT NULL,
    calls integer NOT NULL,
    CONSTRAINT ai_text_usage_total_calls_check CHECK ((calls >= 0)),
    CONSTRAINT ai_text_usage_total_pkey PRIMARY KEY (day)
);
ALTER TABLE public.ai_text_usage_total ENABLE ROW LEVEL SECURITY;

-- ---------------------------------------------------------------------------------------------
-- Knowledge base.
-- ---------------------------------------------------------------------------------------------
CREATE TABLE public.knowledge_base (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    title text NOT NULL,
    content text NOT NULL,
    created_by uuid DEFAULT auth.uid(),
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT knowledge_base_content_check CHECK (((char_length(btrim(content)) >= 1) AND (char_length(btrim(content)) <= 20000))),
    CONSTRAINT knowledge_base_title_check CHECK (((char_length(btrim(title)) >= 1) AND (char_length(btrim(title)) <= 200))),
    CONSTRAINT knowledge_base_pkey PRIMARY KEY (id),
    CONSTRAINT knowledge_base_created_by_fkey FOREIGN KEY (created_by) REFERENCES auth.users(id) ON DELETE SET NULL
);
CREATE INDEX knowledge_base_search_idx ON public.knowledge_base USING gin (to_tsvector('simple'::regconfig, ((title || ' '::text)
    || content)));
ALTER TABLE public.knowledge_base ENABLE ROW LEVEL SECURITY;
CREATE POLICY "admins add knowledge" ON public.knowledge_base FOR INSERT TO authenticated WITH CHECK (( SELECT public.is_admin() AS
    is_admin));
CREATE POLICY "admins delete knowledge" ON public.knowledge_base FOR DELETE TO authenticated USING (( SELECT public.is_admin() AS
    is_admin));
CREATE POLICY "admins edit knowledge" ON public.knowledge_base FOR UPDATE TO authenticated USING (( SELECT public.is_admin() AS
    is_admin)) WITH CHECK (( SELECT public.is_admin() AS is_admin));
CREATE POLICY "admins read knowledge" ON public.knowledge_base FOR SELECT TO authenticated USING (( SELECT public.is_admin() AS is_admin));

create or replace function public.ai_provider_for_call(p_category text) returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object('provider', s.provider, 'model', s.model, 'base_url', s.base_url,
                           'api_key', (select value from public.admin_secrets where name = 'ai_key:' || s.category))
    from public.ai_provider_settings s where s.category = p_category
$$;

create or replace function public.ai_text_take(p_user uuid) returns json
language plpgsql security definer set search_path = '' as $$
declare
  v_day date := (now() at time zone 'utc')::date;
  v_quota public.ai_text_quota;
  v_total int;
  v_used int;
begin
  select * into v_quota from public.ai_text_quota where id;
  if v_quota.global_daily < 1 then
    return json_build_object('ok', false, 'scope', 'global', 'limit', v_quota.global_daily);
  end if;
  insert into public.ai_text_usage_total as t (day, calls) values (v_day, 1)
  on conflict (day) do update set calls = t.calls + 1 where t.calls < v_quota.global_daily
  returning calls into v_total;
  if v_total is null then
    return json_build_object('ok', false, 'scope', 'global', 'limit', v_quota.global_daily);
  end if;
  if v_quota.per_user_daily >= 1 then
    insert into public.ai_text_usage as u (day, user_id, calls) values (v_day, p_user, 1)
    on conflict (day, user_id) do update set calls = u.calls + 1 where u.calls < v_quota.per_user_daily
    returning calls into v_used;
  end if;
  if v_used is null then
    update public.ai_text_usage_total set calls = calls - 1 where day = v_day;
    return json_build_object('ok', false, 'scope', 'user', 'limit', v_quota.per_user_daily);
  end if;
  return json_build_object('ok', true, 'used', v_used, 'per_user_daily', v_quota.per_user_daily);
end
$$;

create or replace function public.search_knowledge(p_query text) returns setof public.knowledge_base
language sql stable set search_path = '' as $$
  select * from public.knowledge_base
   where coalesce(btrim(p_query), '') = ''
      or to_tsvector('simple', title || ' ' || content) @@ plainto_tsquery('simple', p_query)
      or title ilike '%' || p_query || '%' or content ilike '%' || p_query || '%'
   order by updated_at desc
   limit 200
$$;

insert into public.ai_provider_settings (category, provider, model) values
  ('image', 'Stable Diffusion XL', 'Stable Diffusion XL'),
  ('inference', 'OpenAI API', 'OpenAI API'),
  ('music', 'On-device (built in)', 'On-device (built in)'),
  ('text', 'On-device (built in)', 'On-device (built in)');

insert into public.ai_text_quota (id, per_user_daily, global_daily) values
  ('true', '30', '1000');

-- Who may do what: nothing but what is granted here.
REVOKE ALL ON TABLE public.ai_provider_settings, public.ai_text_quota, public.ai_text_usage, public.ai_text_usage_total,
    public.knowledge_base FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON TABLE public.ai_provider_settings, public.ai_text_quota, public.ai_text_usage, public.ai_text_usage_total,
    public.knowledge_base TO service_role;
GRANT DELETE, INSERT, SELECT, UPDATE ON TABLE public.knowledge_base TO authenticated;
GRANT SELECT ON TABLE public.ai_provider_settings TO authenticated;
REVOKE ALL ON FUNCTION public.ai_provider_for_call(p_category text), public.ai_text_take(p_user uuid),
    public.search_knowledge(p_query text) FROM PUBLIC, anon, authenticated, service_role;
GRANT ALL ON FUNCTION public.search_knowledge(p_query text) TO authenticated, service_role;
GRANT ALL ON FUNCTION public.ai_provider_for_call(p_category text), public.ai_text_take(p_user uuid) TO service_role;
