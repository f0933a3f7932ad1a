// Generated from supabase/migrations by `npm run db:types` (scripts/db-types/generate.ts): the
// public schema of a freshly migrated database, in the shape `supabase gen types typescript`
// writes. Do not edit: tests/backend/database-types.test.ts fails when this file is stale.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  public: {
    Tables: {
      account_clients: {
        Row: {
          user_id: string
          client_address: string
          last_seen: string
        }
        Insert: {
          user_id: string
          client_address: string
          last_seen?: string
        }
        Update: {
          user_id?: string
          client_address?: string
          last_seen?: string
        }
        Relationships: []
      }
      address_earnings: {
        Row: {
          address_key: string
          day: string
          earned: number
        }
        Insert: {
          address_key: string
          day: string
          earned?: number
        }
        Update: {
          address_key?: string
          day?: string
          earned?: number
        }
        Relationships: []
      }
      admin_audit: {
        Row: {
          id: number
          actor_id: string | null
          actor_email: string | null
          area: string
          field: string
          old_value: string | null
          new_value: string | null
          created_at: string
        }
        Insert: {
          id?: never
          actor_id?: string | null
          actor_email?: string | null
          area: string
          field: string
          old_value?: string | null
          new_value?: string | null
          created_at?: string
        }
        Update: {
          id?: never
          actor_id?: string | null
          actor_email?: string | null
          area?: string
          field?: string
          old_value?: string | null
          new_value?: string | null
          created_at?: string
        }
        Relationships: []
      }
      admin_secrets: {
        Row: {
          name: string
          value: string
          updated_at: string
        }
        Insert: {
          name: string
          value: string
          updated_at?: string
        }
        Update: {
          name?: string
          value?: string
          updated_at?: string
        }
        Relationships: []
      }
      administrators: {
        Row: {
          user_id: string
          created_at: string
        }
        Insert: {
          user_id: string
          created_at?: string
        }
        Update: {
          user_id?: string
          created_at?: string
        }
        Relationships: []
      }
      ai_provider_settings: {
        Row: {
          category: string
          provider: string
          model: string
          base_url: string | null
          api_key_mask: string | null
          updated_by: string | null
          updated_at: string
        }
        Insert: {
          category: string
          provider: string
          model: string
          base_url?: string | null
          api_key_mask?: string | null
          updated_by?: string | null
          updated_at?: string
        }
        Update: {
          category?: string
          provider?: string
          model?: string
          base_url?: string | null
          api_key_mask?: string | null
          updated_by?: string | null
          updated_at?: string
        }
        Relationships: []
      }
      ai_text_quota: {
        Row: {
          id: boolean
          per_user_daily: number
          global_daily: number
        }
        Insert: {
          id?: boolean
          per_user_daily?: number
          global_daily?: number
        }
        Update: {
          id?: boolean
          per_user_daily?: number
          global_daily?: number
        }
        Relationships: []
      }
      ai_text_usage: {
        Row: {
          day: string
          user_id: string
          calls: number
        }
        Insert: {
          day: string
          user_id: string
          calls: number
        }
        Update: {
          day?: string
          user_id?: string
          calls?: number
        }
        Relationships: []
      }
      ai_text_usage_total: {
        Row: {
          day: string
          calls: number
        }
        Insert: {
          day: string
          calls: number
        }
        Update: {
          day?: string
          calls?: number
        }
        Relationships: []
      }
      app_origins: {
        Row: {
          origin: string
        }
        Insert: {
          origin: string
        }
        Update: {
          origin?: string
        }
        Relationships: []
      }
      audio_durations: {
        Row: {
          object_id: string
          owner_id: string
          bucket_id: string
          name: string
          object_version: string | null
          object_updated_at: string
          duration_seconds: number
          measured_at: string
        }
        Insert: {
          object_id: string
          owner_id: string
          bucket_id: string
          name: string
          object_version?: string | null
          object_updated_at: string
          duration_seconds: number
          measured_at?: string
        }
        Update: {
          object_id?: string
          owner_id?: string
          bucket_id?: string
          name?: string
          object_version?: string | null
          object_updated_at?: string
          duration_seconds?: number
          measured_at?: string
        }
        Relationships: []
      }
      blockchain_configs: {
        Row: {
          name: string
          display_name: string
          native_token: string
          chain_id: number | null
          testnet_rpc_url: string | null
          explorer_url: string | null
          contract_address: string | null
          testnet: boolean
          enabled: boolean
          sort: number
          mainnet_rpc_url: string | null
          icon: string | null
          embedded: boolean
        }
        Insert: {
          name: string
          display_name: string
          native_token: string
          chain_id?: number | null
          testnet_rpc_url?: string | null
          explorer_url?: string | null
          contract_address?: string | null
          testnet?: boolean
          enabled?: boolean
          sort?: number
          mainnet_rpc_url?: string | null
          icon?: string | null
          embedded?: boolean
        }
        Update: {
          name?: string
          display_name?: string
          native_token?: string
          chain_id?: number | null
          testnet_rpc_url?: string | null
          explorer_url?: string | null
          contract_address?: string | null
          testnet?: boolean
          enabled?: boolean
          sort?: number
          mainnet_rpc_url?: string | null
          icon?: string | null
          embedded?: boolean
        }
        Relationships: []
      }
      client_rate_limits: {
        Row: {
          bucket: string
          client: string
          window_start: string
          hits: number
        }
        Insert: {
          bucket: string
          client: string
          window_start: string
          hits: number
        }
        Update: {
          bucket?: string
          client?: string
          window_start?: string
          hits?: number
        }
        Relationships: []
      }
      comment_likes: {
        Row: {
          comment_id: string
          user_id: string
          song_id: string
          created_at: string
        }
        Insert: {
          comment_id: string
          user_id: string
          song_id: string
          created_at?: string
        }
        Update: {
          comment_id?: string
          user_id?: string
          song_id?: string
          created_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "comment_likes_comment_id_fkey"
            columns: ["comment_id"]
            isOneToOne: false
            referencedRelation: "comments"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "comment_likes_song_id_fkey"
            columns: ["song_id"]
            isOneToOne: false
            referencedRelation: "songs"
            referencedColumns: ["id"]
          },
        ]
      }
      comments: {
        Row: {
          id: string
          song_id: string
          user_id: string | null
          username: string
          parent_id: string | null
          body: string
          like_count: number
          deleted: boolean
          edited_at: string | null
          created_at: string
          at_seconds: number | null
        }
        Insert: {
          id?: string
          song_id: string
          user_id?: string | null
          username: string
          parent_id?: string | null
          body: string
          like_count?: number
          deleted?: boolean
          edited_at?: string | null
          created_at?: string
          at_seconds?: number | null
        }
        Update: {
          id?: string
          song_id?: string
          user_id?: string | null
          username?: string
          parent_id?: string | null
          body?: string
          like_count?: number
          deleted?: boolean
          edited_at?: string | null
          created_at?: string
          at_seconds?: number | null
        }
        Relationships: [
          {
            foreignKeyName: "comments_parent_id_fkey"
            columns: ["parent_id"]
            isOneToOne: false
            referencedRelation: "comments"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "comments_song_id_fkey"
            columns: ["song_id"]
            isOneToOne: false
            referencedRelation: "songs"
            referencedColumns: ["id"]
          },
        ]
      }
      creations: {
        Row: {
          user_id: string
          id: string
          kind: string
          title: string
          artist: string
          image: string
          seconds: number
          genre: string | null
          mood: string | null
          remix_id: string | null
          content_type: string
          byte_size: number
          part_count: number
          uploaded_at: string | null
          created_at: string
        }
        Insert: {
          user_id?: string
          id: string
          kind: string
          title: string
          artist: string
          image: string
          seconds?: number
          genre?: string | null
          mood?: string | null
          remix_id?: string | null
          content_type: string
          byte_size: number
          part_count: number
          uploaded_at?: string | null
          created_at?: string
        }
        Update: {
          user_id?: string
          id?: string
          kind?: string
          title?: string
          artist?: string
          image?: string
          seconds?: number
          genre?: string | null
          mood?: string | null
          remix_id?: string | null
          content_type?: string
          byte_size?: number
          part_count?: number
          uploaded_at?: string | null
          created_at?: string
        }
        Relationships: []
      }
      custodial_wallets: {
        Row: {
          user_id: string
          address: string
          private_key: string
          created_at: string
        }
        Insert: {
          user_id: string
          address: string
          private_key: string
          created_at?: string
        }
        Update: {
          user_id?: string
          address?: string
          private_key?: string
          created_at?: string
        }
        Relationships: []
      }
      delegations: {
        Row: {
          delegator_id: string
          delegate_id: string | null
          created_at: string
        }
        Insert: {
          delegator_id: string
          delegate_id?: string | null
          created_at?: string
        }
        Update: {
          delegator_id?: string
          delegate_id?: string | null
          created_at?: string
        }
        Relationships: []
      }
      favourites: {
        Row: {
          user_id: string
          song_id: string
          created_at: string
        }
        Insert: {
          user_id?: string
          song_id: string
          created_at?: string
        }
        Update: {
          user_id?: string
          song_id?: string
          created_at?: string
        }
        Relationships: []
      }
      follow_notices: {
        Row: {
          follower_id: string
          following_id: string
          day: string
        }
        Insert: {
          follower_id: string
          following_id: string
          day: string
        }
        Update: {
          follower_id?: string
          following_id?: string
          day?: string
        }
        Relationships: []
      }
      follows: {
        Row: {
          follower_id: string
          following_id: string
          created_at: string
        }
        Insert: {
          follower_id: string
          following_id: string
          created_at?: string
        }
        Update: {
          follower_id?: string
          following_id?: string
          created_at?: string
        }
        Relationships: []
      }
      knowledge_base: {
        Row: {
          id: string
          title: string
          content: string
          created_by: string | null
          created_at: string
          updated_at: string
        }
        Insert: {
          id?: string
          title: string
          content: string
          created_by?: string | null
          created_at?: string
          updated_at?: string
        }
        Update: {
          id?: string
          title?: string
          content?: string
          created_by?: string | null
          created_at?: string
          updated_at?: string
        }
        Relationships: []
      }
      ledger_reasons: {
        Row: {
          reason: string
          kind: string
          description: string
        }
        Insert: {
          reason: string
          kind: string
          description: string
        }
        Update: {
          reason?: string
          kind?: string
          description?: string
        }
        Relationships: []
      }
      listening_sessions: {
        Row: {
          id: string
          user_id: string
          play_key: string
          song_id: string
          duration_seconds: number
          reward: number
          creator_id: string | null
          client_address: string | null
          started_at: string
          last_report_at: string
          playing: boolean
          heard_seconds: number
          earning_seconds: number
          credited: number
          outcome: string | null
          history_id: number | null
          ended_at: string | null
        }
        Insert: {
          id?: string
          user_id: string
          play_key: string
          song_id: string
          duration_seconds: number
          reward: number
          creator_id?: string | null
          client_address?: string | null
          started_at?: string
          last_report_at?: string
          playing?: boolean
          heard_seconds?: number
          earning_seconds?: number
          credited?: number
          outcome?: string | null
          history_id?: number | null
          ended_at?: string | null
        }
        Update: {
          id?: string
          user_id?: string
          play_key?: string
          song_id?: string
          duration_seconds?: number
          reward?: number
          creator_id?: string | null
          client_address?: string | null
          started_at?: string
          last_report_at?: string
          playing?: boolean
          heard_seconds?: number
          earning_seconds?: number
          credited?: number
          outcome?: string | null
          history_id?: number | null
          ended_at?: string | null
        }
        Relationships: []
      }
      mint_requests: {
        Row: {
          id: string
          user_id: string
          client_key: string
          blockchain: string
          metadata: Json
          recipient: string
          royalties: number
          collection: string | null
          status: string
          transaction_id: string | null
          token_id: string | null
          contract_address: string | null
          error: string | null
          created_at: string
          updated_at: string
        }
        Insert: {
          id?: string
          user_id: string
          client_key: string
          blockchain: string
          metadata: Json
          recipient: string
          royalties: number
          collection?: string | null
          status?: string
          transaction_id?: string | null
          token_id?: string | null
          contract_address?: string | null
          error?: string | null
          created_at?: string
          updated_at?: string
        }
        Update: {
          id?: string
          user_id?: string
          client_key?: string
          blockchain?: string
          metadata?: Json
          recipient?: string
          royalties?: number
          collection?: string | null
          status?: string
          transaction_id?: string | null
          token_id?: string | null
          contract_address?: string | null
          error?: string | null
          created_at?: string
          updated_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "mint_requests_blockchain_fkey"
            columns: ["blockchain"]
            isOneToOne: false
            referencedRelation: "blockchain_configs"
            referencedColumns: ["name"]
          },
        ]
      }
      nfts: {
        Row: {
          id: string
          mint_request_id: string
          blockchain: string
          contract_address: string
          token_id: string
          transaction_id: string
          metadata: Json
          owner_id: string
          minted_at: string
          royalties: number
        }
        Insert: {
          id?: string
          mint_request_id: string
          blockchain: string
          contract_address: string
          token_id: string
          transaction_id: string
          metadata: Json
          owner_id: string
          minted_at?: string
          royalties: number
        }
        Update: {
          id?: string
          mint_request_id?: string
          blockchain?: string
          contract_address?: string
          token_id?: string
          transaction_id?: string
          metadata?: Json
          owner_id?: string
          minted_at?: string
          royalties?: number
        }
        Relationships: [
          {
            foreignKeyName: "nfts_blockchain_fkey"
            columns: ["blockchain"]
            isOneToOne: false
            referencedRelation: "blockchain_configs"
            referencedColumns: ["name"]
          },
          {
            foreignKeyName: "nfts_mint_request_id_fkey"
            columns: ["mint_request_id"]
            isOneToOne: true
            referencedRelation: "mint_requests"
            referencedColumns: ["id"]
          },
        ]
      }
      notifications: {
        Row: {
          id: string
          user_id: string
          kind: string
          title: string
          body: string
          link: string | null
          created_at: string
        }
        Insert: {
          id?: string
          user_id: string
          kind: string
          title: string
          body: string
          link?: string | null
          created_at?: string
        }
        Update: {
          id?: string
          user_id?: string
          kind?: string
          title?: string
          body?: string
          link?: string | null
          created_at?: string
        }
        Relationships: []
      }
      page_views: {
        Row: {
          kind: string
          item_id: string
          owner_id: string | null
          viewer: string
          day: string
          created_at: string
        }
        Insert: {
          kind: string
          item_id: string
          owner_id?: string | null
          viewer: string
          day: string
          created_at?: string
        }
        Update: {
          kind?: string
          item_id?: string
          owner_id?: string | null
          viewer?: string
          day?: string
          created_at?: string
        }
        Relationships: []
      }
      playlist_songs: {
        Row: {
          playlist_id: string
          song_id: string
          position: number
          added_at: string
        }
        Insert: {
          playlist_id: string
          song_id: string
          position?: number
          added_at?: string
        }
        Update: {
          playlist_id?: string
          song_id?: string
          position?: number
          added_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "playlist_songs_playlist_id_fkey"
            columns: ["playlist_id"]
            isOneToOne: false
            referencedRelation: "playlists"
            referencedColumns: ["id"]
          },
        ]
      }
      playlists: {
        Row: {
          id: string
          user_id: string
          name: string
          created_at: string
          is_public: boolean
        }
        Insert: {
          id?: string
          user_id?: string
          name: string
          created_at?: string
          is_public?: boolean
        }
        Update: {
          id?: string
          user_id?: string
          name?: string
          created_at?: string
          is_public?: boolean
        }
        Relationships: []
      }
      profiles: {
        Row: {
          user_id: string
          username: string
          avatar_url: string | null
          bio: string | null
          created_at: string
        }
        Insert: {
          user_id: string
          username: string
          avatar_url?: string | null
          bio?: string | null
          created_at?: string
        }
        Update: {
          user_id?: string
          username?: string
          avatar_url?: string | null
          bio?: string | null
          created_at?: string
        }
        Relationships: []
      }
      project_invites: {
        Row: {
          id: string
          project_id: string
          token: string
          role: string
          created_by: string
          created_at: string
          expires_at: string
          revoked_at: string | null
        }
        Insert: {
          id?: string
          project_id: string
          token?: string
          role: string
          created_by?: string
          created_at?: string
          expires_at: string
          revoked_at?: string | null
        }
        Update: {
          id?: string
          project_id?: string
          token?: string
          role?: string
          created_by?: string
          created_at?: string
          expires_at?: string
          revoked_at?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "project_invites_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "studio_projects"
            referencedColumns: ["id"]
          },
        ]
      }
      project_members: {
        Row: {
          project_id: string
          user_id: string
          role: string
          invited_at: string
        }
        Insert: {
          project_id: string
          user_id: string
          role: string
          invited_at?: string
        }
        Update: {
          project_id?: string
          user_id?: string
          role?: string
          invited_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "project_members_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "studio_projects"
            referencedColumns: ["id"]
          },
        ]
      }
      project_updates: {
        Row: {
          id: number
          project_id: string
          author_id: string
          kind: string
          body: string
          created_at: string
        }
        Insert: {
          id?: never
          project_id: string
          author_id?: string
          kind?: string
          body: string
          created_at?: string
        }
        Update: {
          id?: never
          project_id?: string
          author_id?: string
          kind?: string
          body?: string
          created_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "project_updates_project_id_fkey"
            columns: ["project_id"]
            isOneToOne: false
            referencedRelation: "studio_projects"
            referencedColumns: ["id"]
          },
        ]
      }
      proposal_power: {
        Row: {
          proposal_id: string
          user_id: string
          balance: number
          locked: number
          own_power: number
          delegated_power: number
          delegated: boolean
          delegate_id: string | null
          voting_power: number
          delegation_counted: boolean
          power_days: number | null
        }
        Insert: {
          proposal_id: string
          user_id: string
          balance: number
          locked: number
          own_power: number
          delegated_power: number
          delegated: boolean
          delegate_id?: string | null
          voting_power: number
          delegation_counted?: boolean
          power_days?: number | null
        }
        Update: {
          proposal_id?: string
          user_id?: string
          balance?: number
          locked?: number
          own_power?: number
          delegated_power?: number
          delegated?: boolean
          delegate_id?: string | null
          voting_power?: number
          delegation_counted?: boolean
          power_days?: number | null
        }
        Relationships: [
          {
            foreignKeyName: "proposal_power_proposal_id_fkey"
            columns: ["proposal_id"]
            isOneToOne: false
            referencedRelation: "proposals"
            referencedColumns: ["id"]
          },
        ]
      }
      proposals: {
        Row: {
          id: string
          author_id: string | null
          author_name: string
          title: string
          description: string
          category: string
          status: string
          votes_for: number
          votes_against: number
          voter_count: number
          created_at: string
          ends_at: string
          closed_at: string | null
          snapshot_power: number
          quorum_power: number
        }
        Insert: {
          id?: string
          author_id?: string | null
          author_name: string
          title: string
          description: string
          category: string
          status?: string
          votes_for?: number
          votes_against?: number
          voter_count?: number
          created_at?: string
          ends_at: string
          closed_at?: string | null
          snapshot_power?: number
          quorum_power?: number
        }
        Update: {
          id?: string
          author_id?: string | null
          author_name?: string
          title?: string
          description?: string
          category?: string
          status?: string
          votes_for?: number
          votes_against?: number
          voter_count?: number
          created_at?: string
          ends_at?: string
          closed_at?: string | null
          snapshot_power?: number
          quorum_power?: number
        }
        Relationships: []
      }
      remixes: {
        Row: {
          id: string
          user_id: string
          attempt_key: string
          source_ref: string
          cost: number
          status: string
          created_at: string
          updated_at: string
        }
        Insert: {
          id?: string
          user_id: string
          attempt_key: string
          source_ref: string
          cost: number
          status?: string
          created_at?: string
          updated_at?: string
        }
        Update: {
          id?: string
          user_id?: string
          attempt_key?: string
          source_ref?: string
          cost?: number
          status?: string
          created_at?: string
          updated_at?: string
        }
        Relationships: []
      }
      share_links: {
        Row: {
          id: string
          token: string
          user_id: string
          item_type: string
          item_id: string
          platform: string
          amount: number
          status: string
          created_at: string
          shared_at: string
          credited_at: string | null
          sharer_addresses: string[]
          last_open_reason: string | null
          last_open_at: string | null
        }
        Insert: {
          id?: string
          token: string
          user_id: string
          item_type: string
          item_id: string
          platform: string
          amount: number
          status?: string
          created_at?: string
          shared_at?: string
          credited_at?: string | null
          sharer_addresses?: string[]
          last_open_reason?: string | null
          last_open_at?: string | null
        }
        Update: {
          id?: string
          token?: string
          user_id?: string
          item_type?: string
          item_id?: string
          platform?: string
          amount?: number
          status?: string
          created_at?: string
          shared_at?: string
          credited_at?: string | null
          sharer_addresses?: string[]
          last_open_reason?: string | null
          last_open_at?: string | null
        }
        Relationships: []
      }
      share_open_payers: {
        Row: {
          sharer_id: string
          day: string
          visitor_key: string
        }
        Insert: {
          sharer_id: string
          day: string
          visitor_key: string
        }
        Update: {
          sharer_id?: string
          day?: string
          visitor_key?: string
        }
        Relationships: []
      }
      share_visits: {
        Row: {
          nonce: string
          link_id: string
          visitor_key: string
          issued_at: string
          redeemed_at: string | null
        }
        Insert: {
          nonce: string
          link_id: string
          visitor_key: string
          issued_at?: string
          redeemed_at?: string | null
        }
        Update: {
          nonce?: string
          link_id?: string
          visitor_key?: string
          issued_at?: string
          redeemed_at?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "share_visits_link_id_fkey"
            columns: ["link_id"]
            isOneToOne: false
            referencedRelation: "share_links"
            referencedColumns: ["id"]
          },
        ]
      }
      shares: {
        Row: {
          user_id: string
          item_type: string
          item_id: string
          platform: string
          day: string
          amount: number
          created_at: string
        }
        Insert: {
          user_id: string
          item_type: string
          item_id: string
          platform: string
          day: string
          amount: number
          created_at?: string
        }
        Update: {
          user_id?: string
          item_type?: string
          item_id?: string
          platform?: string
          day?: string
          amount?: number
          created_at?: string
        }
        Relationships: []
      }
      site_settings: {
        Row: {
          id: boolean
          site_title: string
          primary_color: string | null
          max_free_songs: number
          database_url_mask: string | null
          api_base_url: string | null
          api_timeout_ms: number
          max_retries: number
          updated_by: string | null
          updated_at: string
        }
        Insert: {
          id?: boolean
          site_title?: string
          primary_color?: string | null
          max_free_songs?: number
          database_url_mask?: string | null
          api_base_url?: string | null
          api_timeout_ms?: number
          max_retries?: number
          updated_by?: string | null
          updated_at?: string
        }
        Update: {
          id?: boolean
          site_title?: string
          primary_color?: string | null
          max_free_songs?: number
          database_url_mask?: string | null
          api_base_url?: string | null
          api_timeout_ms?: number
          max_retries?: number
          updated_by?: string | null
          updated_at?: string
        }
        Relationships: []
      }
      siwe_nonces: {
        Row: {
          nonce: string
          user_id: string
          created_at: string
          expires_at: string
          used_at: string | null
        }
        Insert: {
          nonce: string
          user_id: string
          created_at?: string
          expires_at: string
          used_at?: string | null
        }
        Update: {
          nonce?: string
          user_id?: string
          created_at?: string
          expires_at?: string
          used_at?: string | null
        }
        Relationships: []
      }
      song_publications: {
        Row: {
          id: number
          user_id: string
          song_id: string
          published_at: string
          attempt_key: string | null
        }
        Insert: {
          id?: never
          user_id: string
          song_id: string
          published_at?: string
          attempt_key?: string | null
        }
        Update: {
          id?: never
          user_id?: string
          song_id?: string
          published_at?: string
          attempt_key?: string | null
        }
        Relationships: []
      }
      songs: {
        Row: {
          id: string
          title: string
          artist: string
          duration_seconds: number
          reward: number
          slug: string
          genre: string | null
          owner_id: string | null
          cover_url: string | null
          audio_url: string | null
          created_at: string
          loudness_lufs: number | null
          true_peak_dbtp: number | null
          remix_id: string | null
          remix_of: string | null
        }
        Insert: {
          id: string
          title: string
          artist: string
          duration_seconds: number
          reward?: number
          slug: string
          genre?: string | null
          owner_id?: string | null
          cover_url?: string | null
          audio_url?: string | null
          created_at?: string
          loudness_lufs?: number | null
          true_peak_dbtp?: number | null
          remix_id?: string | null
          remix_of?: string | null
        }
        Update: {
          id?: string
          title?: string
          artist?: string
          duration_seconds?: number
          reward?: number
          slug?: string
          genre?: string | null
          owner_id?: string | null
          cover_url?: string | null
          audio_url?: string | null
          created_at?: string
          loudness_lufs?: number | null
          true_peak_dbtp?: number | null
          remix_id?: string | null
          remix_of?: string | null
        }
        Relationships: [
          {
            foreignKeyName: "songs_remix_id_fkey"
            columns: ["remix_id"]
            isOneToOne: true
            referencedRelation: "remixes"
            referencedColumns: ["id"]
          },
          {
            foreignKeyName: "songs_remix_of_fkey"
            columns: ["remix_of"]
            isOneToOne: false
            referencedRelation: "songs"
            referencedColumns: ["id"]
          },
        ]
      }
      storage_quotas: {
        Row: {
          user_id: string
          limit_bytes: number
          updated_at: string
        }
        Insert: {
          user_id: string
          limit_bytes: number
          updated_at?: string
        }
        Update: {
          user_id?: string
          limit_bytes?: number
          updated_at?: string
        }
        Relationships: []
      }
      studio_projects: {
        Row: {
          id: string
          user_id: string
          name: string
          track_count: number
          duration_seconds: number
          created_at: string
          updated_at: string
          audio_uploaded_at: string | null
        }
        Insert: {
          id: string
          user_id?: string
          name: string
          track_count?: number
          duration_seconds?: number
          created_at?: string
          updated_at?: string
          audio_uploaded_at?: string | null
        }
        Update: {
          id?: string
          user_id?: string
          name?: string
          track_count?: number
          duration_seconds?: number
          created_at?: string
          updated_at?: string
          audio_uploaded_at?: string | null
        }
        Relationships: []
      }
      token_ledger: {
        Row: {
          id: number
          user_id: string | null
          amount: number
          reason: string
          reference: string | null
          idempotency_key: string
          created_at: string
        }
        Insert: {
          id?: never
          user_id?: string | null
          amount: number
          reason: string
          reference?: string | null
          idempotency_key: string
          created_at?: string
        }
        Update: {
          id?: never
          user_id?: string | null
          amount?: number
          reason?: string
          reference?: string | null
          idempotency_key?: string
          created_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "token_ledger_reason_fkey"
            columns: ["reason"]
            isOneToOne: false
            referencedRelation: "ledger_reasons"
            referencedColumns: ["reason"]
          },
        ]
      }
      user_listening_history: {
        Row: {
          id: number
          user_id: string
          song_id: string
          listened_at: string
          seconds: number
        }
        Insert: {
          id?: never
          user_id: string
          song_id: string
          listened_at?: string
          seconds: number
        }
        Update: {
          id?: never
          user_id?: string
          song_id?: string
          listened_at?: string
          seconds?: number
        }
        Relationships: []
      }
      user_settings: {
        Row: {
          user_id: string
          notify_replies: boolean
          notify_followers: boolean
          notify_votes: boolean
          notify_mints: boolean
          public_profile: boolean
          show_activity: boolean
          updated_at: string
        }
        Insert: {
          user_id?: string
          notify_replies?: boolean
          notify_followers?: boolean
          notify_votes?: boolean
          notify_mints?: boolean
          public_profile?: boolean
          show_activity?: boolean
          updated_at?: string
        }
        Update: {
          user_id?: string
          notify_replies?: boolean
          notify_followers?: boolean
          notify_votes?: boolean
          notify_mints?: boolean
          public_profile?: boolean
          show_activity?: boolean
          updated_at?: string
        }
        Relationships: []
      }
      user_tokens: {
        Row: {
          user_id: string
          balance: number
          daily_earned: number
          listens_today: number
          day: string
          created_at: string
          updated_at: string
          last_interaction_at: string
        }
        Insert: {
          user_id: string
          balance?: number
          daily_earned?: number
          listens_today?: number
          day?: string
          created_at?: string
          updated_at?: string
          last_interaction_at?: string
        }
        Update: {
          user_id?: string
          balance?: number
          daily_earned?: number
          listens_today?: number
          day?: string
          created_at?: string
          updated_at?: string
          last_interaction_at?: string
        }
        Relationships: []
      }
      votes: {
        Row: {
          proposal_id: string
          user_id: string
          choice: string
          power: number
          delegators: string[]
          created_at: string
        }
        Insert: {
          proposal_id: string
          user_id: string
          choice: string
          power: number
          delegators?: string[]
          created_at?: string
        }
        Update: {
          proposal_id?: string
          user_id?: string
          choice?: string
          power?: number
          delegators?: string[]
          created_at?: string
        }
        Relationships: [
          {
            foreignKeyName: "votes_proposal_id_fkey"
            columns: ["proposal_id"]
            isOneToOne: false
            referencedRelation: "proposals"
            referencedColumns: ["id"]
          },
        ]
      }
      wallet_links: {
        Row: {
          user_id: string
          address: string
          chain_id: number | null
          linked_at: string
          custodial: boolean
        }
        Insert: {
          user_id: string
          address: string
          chain_id?: number | null
          linked_at?: string
          custodial?: boolean
        }
        Update: {
          user_id?: string
          address?: string
          chain_id?: number | null
          linked_at?: string
          custodial?: boolean
        }
        Relationships: []
      }
      wallet_welcomes: {
        Row: {
          user_id: string | null
          address: string
          granted_at: string
        }
        Insert: {
          user_id?: string | null
          address: string
          granted_at?: string
        }
        Update: {
          user_id?: string | null
          address?: string
          granted_at?: string
        }
        Relationships: []
      }
    }
    Views: {
      [_ in never]: never
    }
    Functions: {
      aal_satisfied: {
        Args: Record<PropertyKey, never>
        Returns: boolean
      }
      accept_project_invite: {
        Args: {
          p_token: string
        }
        Returns: Json
      }
      account_ring: {
        Args: {
          p_user?: string
        }
        Returns: {
            user_id: string
            others: number
          }[]
      }
      account_storage: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      account_trust: {
        Args: {
          p_user?: string
        }
        Returns: {
            user_id: string
            balance: number
            listening_days: number
            distinct_songs: number
            welcome: number
            trusted: boolean
            locked: number
            age_hours: number
            ring_accounts: number
          }[]
      }
      accounts_linked: {
        Args: {
          p_actor: string
          p_other: string
        }
        Returns: boolean
      }
      add_mfa_policy: {
        Args: {
          p_table: string
        }
        Returns: undefined
      }
      add_notice: {
        Args: {
          p_user: string
          p_kind: string
          p_title: string
          p_body: string
          p_link: string
        }
        Returns: undefined
      }
      address_allowance: {
        Args: {
          p_amount: number
        }
        Returns: number
      }
      address_key: {
        Args: {
          p_address: string
        }
        Returns: string
      }
      admin_audit_write: {
        Args: {
          p_area: string
          p_field: string
          p_old: string
          p_new: string
        }
        Returns: undefined
      }
      admin_economy: {
        Args: {
          p_days?: number
        }
        Returns: Json
      }
      admin_list_admins: {
        Args: Record<PropertyKey, never>
        Returns: {
            email: string
            since: string
          }[]
      }
      admin_save_ai_settings: {
        Args: {
          p_category: string
          p_provider: string
          p_model: string
          p_base_url: string
          p_api_key: string
        }
        Returns: Json
      }
      admin_save_site_settings: {
        Args: {
          p_site_title: string
          p_primary_color: string
          p_max_free_songs: number
          p_database_url: string
          p_api_base_url: string
          p_api_timeout_ms: number
          p_max_retries: number
        }
        Returns: Json
      }
      admin_set_role: {
        Args: {
          p_email: string
          p_admin: boolean
        }
        Returns: Json
      }
      ai_provider_for_call: {
        Args: {
          p_category: string
        }
        Returns: Json
      }
      ai_text_take: {
        Args: {
          p_user: string
        }
        Returns: Json
      }
      cast_vote: {
        Args: {
          p_proposal_id: string
          p_choice: string
        }
        Returns: Json
      }
      chart_plays: {
        Args: Record<PropertyKey, never>
        Returns: {
            song_id: string
            plays: number
            listeners: number
          }[]
      }
      chart_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      check_request: {
        Args: Record<PropertyKey, never>
        Returns: undefined
      }
      client_address: {
        Args: Record<PropertyKey, never>
        Returns: string
      }
      client_rate_take: {
        Args: {
          p_bucket: string
          p_client: string
          p_limit: number
          p_window_seconds?: number
        }
        Returns: boolean
      }
      close_due_proposals: {
        Args: Record<PropertyKey, never>
        Returns: number
      }
      comment_credit: {
        Args: {
          p_user: string
          p_amount: number
          p_reason: string
          p_ref: string
          p_key: string
          p_key_prefix: string
          p_cap: number
        }
        Returns: number
      }
      comment_json: {
        Args: {
          p_id: string
        }
        Returns: Json
      }
      comment_lock_wallets: {
        Args: {
          p_users: string[]
        }
        Returns: undefined
      }
      comment_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      compact_project_updates: {
        Args: {
          p_project: string
          p_through: number
          p_snapshot: string
        }
        Returns: undefined
      }
      create_project_invite: {
        Args: {
          p_project: string
          p_role: string
          p_hours: number
        }
        Returns: Json
      }
      create_proposal: {
        Args: {
          p_title: string
          p_description: string
          p_category: string
          p_ends_at: string
          p_attempt_key?: string
        }
        Returns: Json
      }
      delegate_voting_power: {
        Args: {
          p_username?: string
        }
        Returns: Json
      }
      delete_comment: {
        Args: {
          p_comment_id: string
        }
        Returns: Json
      }
      delete_my_account: {
        Args: {
          p_confirm_username: string
        }
        Returns: Json
      }
      edit_comment: {
        Args: {
          p_comment_id: string
          p_body: string
        }
        Returns: Json
      }
      enabled_blockchains: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      governance_listening_days: {
        Args: {
          p_user?: string
        }
        Returns: {
            user_id: string
            power_days: number
          }[]
      }
      governance_overview: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      governance_own_power: {
        Args: {
          p_user: string
        }
        Returns: number
      }
      governance_power: {
        Args: {
          p_votable: number
          p_days: number
        }
        Returns: number
      }
      governance_power_used: {
        Args: {
          p_proposal_id: string
          p_user: string
        }
        Returns: boolean
      }
      governance_proposals: {
        Args: Record<PropertyKey, never>
        Returns: Database["public"]["Tables"]["proposals"]["Row"][]
      }
      governance_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      init_user_tokens: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      invite_project_member: {
        Args: {
          p_project: string
          p_username: string
          p_role: string
        }
        Returns: Json
      }
      is_admin: {
        Args: Record<PropertyKey, never>
        Returns: boolean
      }
      link_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      listen_answer: {
        Args: {
          p_session: Database["public"]["Tables"]["listening_sessions"]["Row"]
        }
        Returns: Json
      }
      listen_begin: {
        Args: {
          p_song_id: string
          p_duration: number
          p_reward: number
          p_creator: string
          p_play_id: string
          p_interacted: boolean
        }
        Returns: Json
      }
      listen_lock: {
        Args: {
          p_users: string[]
        }
        Returns: undefined
      }
      listen_offline: {
        Args: {
          p_song_id: string
          p_play_id: string
          p_played_at: string
        }
        Returns: Json
      }
      listen_report: {
        Args: {
          p_session_id: string
          p_playing: boolean
          p_interacted?: boolean
          p_ended?: boolean
        }
        Returns: Json
      }
      listen_settle: {
        Args: {
          p_session: string
          p_playing: boolean
          p_end: boolean
        }
        Returns: Database["public"]["Tables"]["listening_sessions"]["Row"]
      }
      listen_start: {
        Args: {
          p_song_id: string
          p_play_id: string
          p_interacted?: boolean
        }
        Returns: Json
      }
      listen_station_start: {
        Args: {
          p_recipe_id: string
          p_play_id: string
          p_interacted?: boolean
        }
        Returns: Json
      }
      listener_linked_to_creator: {
        Args: {
          p_listener: string
          p_creator: string
        }
        Returns: boolean
      }
      lock_wallet: {
        Args: {
          p_user: string
        }
        Returns: number
      }
      mask_secret: {
        Args: {
          p_value: string
        }
        Returns: string
      }
      mint_begin: {
        Args: {
          p_user: string
          p_client_key: string
          p_blockchain: string
          p_metadata: Json
          p_recipient: string
          p_royalties: number
          p_collection: string
        }
        Returns: Json
      }
      mint_complete: {
        Args: {
          p_request: string
          p_tx_hash: string
          p_token_id: string
          p_contract: string
        }
        Returns: Json
      }
      mint_context: {
        Args: {
          p_user: string
          p_blockchain: string
        }
        Returns: Json
      }
      mint_fail: {
        Args: {
          p_request: string
          p_error: string
        }
        Returns: Json
      }
      mint_metadata: {
        Args: {
          p_request: string
        }
        Returns: Json
      }
      my_address_allowance: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      my_comment_stats: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      my_creator_earnings: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      my_shared_projects: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      my_trust_status: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      my_votes: {
        Args: Record<PropertyKey, never>
        Returns: {
            proposal_id: string
            title: string
            choice: string
            power: number
            voted_at: string
            status: string
            ends_at: string
          }[]
      }
      note_account_client: {
        Args: {
          p_user: string
        }
        Returns: string
      }
      open_share: {
        Args: {
          p_token: string
          p_nonce?: string
        }
        Returns: Json
      }
      own_remix_locked: {
        Args: {
          p_remix_id: string
          p_user: string
        }
        Returns: Database["public"]["Tables"]["remixes"]["Row"]
      }
      post_comment: {
        Args: {
          p_song_id: string
          p_body: string
          p_parent_id?: string
          p_at_seconds?: number
        }
        Returns: Json
      }
      post_ledger: {
        Args: {
          p_user: string
          p_amount: number
          p_reason: string
          p_reference: string
          p_key: string
        }
        Returns: number
      }
      profile_is_public: {
        Args: {
          p_user: string
        }
        Returns: boolean
      }
      profile_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      profile_visible: {
        Args: {
          p_owner: string
        }
        Returns: boolean
      }
      project_audio_path: {
        Args: {
          p_project: string
          p_file: string
        }
        Returns: string
      }
      project_audio_readable: {
        Args: {
          p_name: string
        }
        Returns: boolean
      }
      project_role: {
        Args: {
          p_project: string
        }
        Returns: string
      }
      project_topic_allowed: {
        Args: {
          p_topic: string
          p_write: boolean
        }
        Returns: boolean
      }
      public_playlists: {
        Args: {
          p_user_id: string
        }
        Returns: Json
      }
      public_profile_name: {
        Args: {
          p_username: string
        }
        Returns: Json
      }
      public_site_settings: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      publish_song: {
        Args: {
          p_title: string
          p_genre: string
          p_audio_path: string
          p_cover_path?: string
          p_attempt_key?: string
        }
        Returns: Json
      }
      publishing_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      recent_listens: {
        Args: {
          p_user_id: string
          p_limit?: number
        }
        Returns: {
            song_id: string
            title: string
            artist: string
            slug: string
            listened_at: string
          }[]
      }
      recommend_songs: {
        Args: {
          p_mode?: string
          p_salt?: number
          p_limit?: number
        }
        Returns: Json
      }
      record_audio_duration: {
        Args: {
          p_path: string
          p_size: number
          p_seconds: number
        }
        Returns: Json
      }
      record_remix_source: {
        Args: {
          p_song_id: string
          p_remix_id: string
        }
        Returns: Json
      }
      record_song_loudness: {
        Args: {
          p_song_id: string
          p_loudness_lufs: number
          p_true_peak_dbtp: number
        }
        Returns: boolean
      }
      record_view: {
        Args: {
          p_kind: string
          p_item_id: string
          p_visitor?: string
        }
        Returns: Json
      }
      remix_burn: {
        Args: {
          p_source: string
          p_attempt_key: string
        }
        Returns: Json
      }
      remix_complete: {
        Args: {
          p_remix_id: string
        }
        Returns: Json
      }
      remix_refund: {
        Args: {
          p_remix_id: string
        }
        Returns: Json
      }
      remix_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      request_from_app_page: {
        Args: Record<PropertyKey, never>
        Returns: boolean
      }
      require_admin: {
        Args: Record<PropertyKey, never>
        Returns: string
      }
      require_uid: {
        Args: {
          p_message?: string
          p_detail?: string
        }
        Returns: string
      }
      require_wallet_address: {
        Args: {
          p_user: string
          p_address: string
        }
        Returns: undefined
      }
      revoke_project_invite: {
        Args: {
          p_invite: string
        }
        Returns: undefined
      }
      reward_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      search_knowledge: {
        Args: {
          p_query: string
        }
        Returns: Database["public"]["Tables"]["knowledge_base"]["Row"][]
      }
      set_comment_like: {
        Args: {
          p_comment_id: string
          p_liked: boolean
        }
        Returns: Json
      }
      share_analytics: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      share_create: {
        Args: {
          p_item_type: string
          p_item_id: string
          p_platform: string
        }
        Returns: Json
      }
      share_link_by_token: {
        Args: {
          p_token: string
        }
        Returns: Database["public"]["Tables"]["share_links"]["Row"]
      }
      share_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      share_visit_begin: {
        Args: {
          p_token: string
        }
        Returns: Json
      }
      share_visit_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      signup_confirms_email: {
        Args: Record<PropertyKey, never>
        Returns: boolean
      }
      signup_email_problem: {
        Args: {
          p_email: string
        }
        Returns: string
      }
      slugify: {
        Args: {
          p_text: string
        }
        Returns: string
      }
      snapshot_proposal_power: {
        Args: {
          p_proposal_id: string
        }
        Returns: number
      }
      spend_tokens: {
        Args: {
          p_amount: number
          p_reason: string
          p_ref: string
        }
        Returns: Json
      }
      station_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      still_listening: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      storage_object_visible: {
        Args: {
          p_name: string
        }
        Returns: boolean
      }
      storage_quota_allows: {
        Args: {
          p_bucket: string
          p_name: string
          p_metadata: Json
        }
        Returns: boolean
      }
      storage_quota_buckets: {
        Args: Record<PropertyKey, never>
        Returns: string[]
      }
      storage_quota_check: {
        Args: {
          p_user_id: string
          p_used: number
          p_adding: number
        }
        Returns: undefined
      }
      storage_quota_limit: {
        Args: {
          p_user_id: string
        }
        Returns: number
      }
      storage_used_bytes: {
        Args: {
          p_user_id: string
          p_except_bucket?: string
          p_except_name?: string
        }
        Returns: number
      }
      trust_missing: {
        Args: {
          p_status: Json
        }
        Returns: string
      }
      trust_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      trust_status: {
        Args: {
          p_user: string
        }
        Returns: Json
      }
      undelegate_voting_power: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      unpublish_song: {
        Args: {
          p_song_id: string
        }
        Returns: Json
      }
      username_lookalike: {
        Args: {
          p_name: string
          p_except?: string
        }
        Returns: string
      }
      username_problem: {
        Args: {
          p_name: string
        }
        Returns: string
      }
      username_rule_problem: {
        Args: {
          p_name: string
        }
        Returns: string
      }
      username_skeleton: {
        Args: {
          p_name: string
        }
        Returns: string
      }
      username_taken_words: {
        Args: {
          p_name: string
          p_taken: string
        }
        Returns: string
      }
      wallet_claim: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      wallet_claim_status: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      wallet_issue_nonce: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      wallet_link: {
        Args: {
          p_user: string
          p_address: string
          p_nonce: string
          p_chain_id: number
        }
        Returns: Json
      }
      wallet_link_custodial: {
        Args: {
          p_user: string
          p_address: string
          p_private_key: string
        }
        Returns: Json
      }
      wallet_rules: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      wallet_unlink: {
        Args: Record<PropertyKey, never>
        Returns: Json
      }
      wallet_welcome_once: {
        Args: {
          p_user: string
          p_address: string
          p_balance: number
        }
        Returns: {
            granted: number
            balance: number
          }
      }
      wants_notice: {
        Args: {
          p_user: string
          p_kind: string
        }
        Returns: boolean
      }
    }
    Enums: {
      [_ in never]: never
    }
    CompositeTypes: {
      [_ in never]: never
    }
  }
}

type PublicSchema = Database["public"]

/** A table's or view's row: `Tables<'songs'>`. */
export type Tables<T extends keyof PublicSchema["Tables"] | keyof PublicSchema["Views"]> = T extends keyof PublicSchema["Tables"]
  ? PublicSchema["Tables"][T]["Row"]
  : T extends keyof PublicSchema["Views"]
    ? PublicSchema["Views"][T]["Row"]
    : never
export type TablesInsert<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Insert"]
export type TablesUpdate<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Update"]
/** An RPC's arguments and result: `RpcArgs<'listen_start'>`, `RpcResult<'listen_start'>`. */
export type RpcArgs<F extends keyof PublicSchema["Functions"]> = PublicSchema["Functions"][F]["Args"]
export type RpcResult<F extends keyof PublicSchema["Functions"]> = PublicSchema["Functions"][F]["Returns"]
