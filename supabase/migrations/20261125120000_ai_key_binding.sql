-- Issue 22, item 8: a stored provider key is bound to where it is sent. Changing the provider,
-- the model or the base URL without entering the key again clears the stored key, so an
-- administrator (or a stolen admin session) cannot redirect a key someone else entered to a
-- server of their choosing. Same signature and answer as before (20261124150100_admin.sql).

/**
 * Saves one AI category. p_api_key: null keeps the stored key only while provider, model and base
 * URL stay as they are (any change clears it), '' removes it, anything else replaces it.
 */
create or replace function public.admin_save_ai_settings(p_category text, p_provider text, p_model text, p_base_url text, p_api_key text) returns json
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_old public.ai_provider_settings;
  v_new public.ai_provider_settings;
  v_key text := p_api_key;
  v_mask text;
begin
  perform public.require_admin();
  select * into v_old from public.ai_provider_settings where category = p_category for update;
  if not found then
    raise exception 'unknown_category' using errcode = '22023', detail = 'The category must be image, text, music or inference.';
  end if;
  if v_key is not null and char_length(v_key) > 4096 then
    raise exception 'invalid_api_key' using errcode = '22023', detail = 'An API key is at most 4,096 characters.';
  end if;
  -- The key was entered for the old destination: a new destination must be given its key again.
  if v_key is null and v_old.api_key_mask is not null
     and (btrim(p_provider) is distinct from v_old.provider or btrim(p_model) is distinct from v_old.model
          or nullif(btrim(coalesce(p_base_url, '')), '') is distinct from v_old.base_url) then
    v_key := '';
  end if;
  v_mask := case when v_key is null then v_old.api_key_mask when v_key = '' then null else public.mask_secret(v_key) end;
  update public.ai_provider_settings
     set provider = btrim(p_provider), model = btrim(p_model), base_url = nullif(btrim(coalesce(p_base_url, '')), ''),
         api_key_mask = v_mask, updated_by = auth.uid(), updated_at = now()
   where category = p_category
  returning * into v_new;
  if v_key = '' then
    delete from public.admin_secrets where name = 'ai_key:' || p_category;
  elsif v_key is not null then
    insert into public.admin_secrets (name, value) values ('ai_key:' || p_category, v_key)
    on conflict (name) do update set value = excluded.value, updated_at = now();
  end if;
  perform public.admin_audit_write('ai:' || p_category, 'provider', v_old.provider, v_new.provider);
  perform public.admin_audit_write('ai:' || p_category, 'model', v_old.model, v_new.model);
  perform public.admin_audit_write('ai:' || p_category, 'base_url', v_old.base_url, v_new.base_url);
  if v_key is not null then
    perform public.admin_audit_write('ai:' || p_category, 'api_key', coalesce(v_old.api_key_mask, '(none)'), coalesce(v_mask, '(none)'));
  end if;
  return json_build_object('category', v_new.category, 'provider', v_new.provider, 'model', v_new.model,
                           'base_url', v_new.base_url, 'api_key_mask', v_new.api_key_mask, 'updated_at', v_new.updated_at);
end
$$;

revoke execute on function public.admin_save_ai_settings(text, text, text, text, text) from public, anon;
grant execute on function public.admin_save_ai_settings(text, text, text, text, text) to authenticated;
