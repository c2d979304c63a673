// @generated automatically by Diesel CLI.

diesel::table! {
    account_event_counters (user_id) {
        user_id -> Uuid,
        last -> Int8,
        streaming_until -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    account_events (user_id, seq) {
        user_id -> Uuid,
        seq -> Int8,
        kind -> Text,
        game_id -> Nullable<Uuid>,
        data -> Jsonb,
        at -> Timestamptz,
    }
}

diesel::table! {
    chat_mutes (game_id, user_id, seat) {
        game_id -> Uuid,
        user_id -> Uuid,
        seat -> Int2,
    }
}

diesel::table! {
    game_chat (game_id, seq) {
        game_id -> Uuid,
        seq -> Int8,
        user_id -> Uuid,
        seat -> Nullable<Int2>,
        text -> Text,
        at -> Timestamptz,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> Uuid,
        user_id -> Uuid,
        name -> Text,
        token_hash -> Bytea,
        scopes -> Array<Nullable<Text>>,
        created_at -> Timestamptz,
        last_used_at -> Nullable<Timestamptz>,
        revoked_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    competitions (id) {
        id -> Uuid,
        name -> Text,
        kind -> Text,
        options -> Jsonb,
        clock -> Jsonb,
        rated -> Bool,
        format -> Jsonb,
        entry -> Text,
        max_entrants -> Nullable<Int4>,
        min_rating -> Nullable<Int4>,
        tie_breaks -> Jsonb,
        scoring -> Jsonb,
        withdrawal -> Text,
        vacation_allowed -> Bool,
        status -> Text,
        organiser_id -> Uuid,
        current_round -> Int4,
        season -> Int4,
        final_standings -> Nullable<Jsonb>,
        finalised_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        started_at -> Nullable<Timestamptz>,
        finished_at -> Nullable<Timestamptz>,
        require_working_address -> Bool,
    }
}

diesel::table! {
    competition_invitations (competition_id, email) {
        competition_id -> Uuid,
        email -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    competition_entrants (competition_id, number) {
        competition_id -> Uuid,
        number -> Int4,
        user_id -> Uuid,
        status -> Text,
        rating -> Nullable<Int4>,
        pairing_number -> Nullable<Int4>,
        division -> Nullable<Int4>,
        annulled -> Bool,
        entered_at -> Timestamptz,
        left_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    competition_games (game_id) {
        game_id -> Uuid,
        competition_id -> Uuid,
        season -> Int4,
        round -> Int4,
        table_no -> Int4,
        division -> Nullable<Int4>,
        seats -> Array<Int4>,
        result -> Jsonb,
        corrected -> Bool,
    }
}

diesel::table! {
    competition_byes (competition_id, season, round, entrant) {
        competition_id -> Uuid,
        season -> Int4,
        round -> Int4,
        entrant -> Int4,
        kind -> Text,
        table_no -> Int4,
    }
}

diesel::table! {
    competition_audit (id) {
        id -> Int8,
        competition_id -> Uuid,
        actor_id -> Nullable<Uuid>,
        action -> Text,
        detail -> Jsonb,
        reason -> Text,
        at -> Timestamptz,
    }
}

diesel::table! {
    email_links (id) {
        id -> Uuid,
        token_hash -> Bytea,
        user_id -> Nullable<Uuid>,
        email -> Text,
        purpose -> Text,
        game_id -> Nullable<Uuid>,
        seat -> Nullable<Int2>,
        expires_at -> Timestamptz,
        used_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    game_actions (game_id, seq) {
        game_id -> Uuid,
        seq -> Int8,
        seat -> Int2,
        action -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    game_archives (game_id) {
        game_id -> Uuid,
        actions -> Json,
        events -> Json,
    }
}

diesel::table! {
    game_events (game_id, seq) {
        game_id -> Uuid,
        seq -> Int8,
        action_seq -> Int8,
        audience -> Jsonb,
        event -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    game_results (game_id, seat) {
        game_id -> Uuid,
        seat -> Int2,
        user_id -> Uuid,
        kind -> Text,
        place -> Int2,
        score -> Nullable<Int8>,
        tiebreaks -> Jsonb,
        reason -> Text,
        finished_at -> Timestamptz,
    }
}

diesel::table! {
    game_seats (game_id, seat) {
        game_id -> Uuid,
        seat -> Int2,
        user_id -> Nullable<Uuid>,
        invited_email -> Nullable<Text>,
        is_pending -> Bool,
        entropy -> Nullable<Text>,
        joined_at -> Nullable<Timestamptz>,
        deadline -> Nullable<Timestamptz>,
        pending_since -> Nullable<Timestamptz>,
        bank_seconds -> Nullable<Int8>,
        timeouts -> Int4,
        dropped -> Bool,
        next_reminder_at -> Nullable<Timestamptz>,
        closed -> Bool,
        pending_version -> Nullable<Int8>,
    }
}

diesel::table! {
    game_refusals (game_id, email) {
        game_id -> Uuid,
        email -> Text,
        reason -> Text,
        at -> Timestamptz,
    }
}

diesel::table! {
    games (id) {
        id -> Uuid,
        kind -> Text,
        rules_version -> Int4,
        options -> Jsonb,
        seed -> Bytea,
        seed_commitment -> Text,
        state -> Nullable<Json>,
        version -> Int8,
        action_count -> Int8,
        event_count -> Int8,
        status -> Text,
        outcome -> Nullable<Jsonb>,
        seat_count -> Int2,
        created_by -> Uuid,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        finished_at -> Nullable<Timestamptz>,
        clock -> Jsonb,
        rated -> Bool,
        spectator_chat -> Bool,
    }
}

diesel::table! {
    idempotency_keys (user_id, key) {
        user_id -> Uuid,
        key -> Text,
        request_hash -> Bytea,
        status -> Int2,
        body -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    jobs (id) {
        id -> Int8,
        kind -> Text,
        payload -> Jsonb,
        status -> Text,
        attempts -> Int4,
        run_at -> Timestamptz,
        last_error -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    rating_history (game_id, user_id) {
        seq -> Int8,
        user_id -> Uuid,
        kind -> Text,
        game_id -> Uuid,
        at -> Timestamptz,
        rating_before -> Float8,
        deviation_before -> Float8,
        volatility_before -> Nullable<Float8>,
        mu_before -> Nullable<Float8>,
        sigma_before -> Nullable<Float8>,
        rating_after -> Float8,
        deviation_after -> Float8,
        volatility_after -> Nullable<Float8>,
        mu_after -> Nullable<Float8>,
        sigma_after -> Nullable<Float8>,
    }
}

diesel::table! {
    ratings (user_id, kind) {
        user_id -> Uuid,
        kind -> Text,
        rating -> Float8,
        deviation -> Float8,
        volatility -> Nullable<Float8>,
        mu -> Nullable<Float8>,
        sigma -> Nullable<Float8>,
        games -> Int4,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    users (id) {
        id -> Uuid,
        email -> Text,
        display_name -> Text,
        locale -> Text,
        password_hash -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        time_zone -> Text,
        vacation_since -> Nullable<Timestamptz>,
        vacation_until -> Nullable<Timestamptz>,
        vacation_auto -> Bool,
        address_works_since -> Nullable<Timestamptz>,
        vacation_bank_seconds -> Nullable<Int8>,
        vacation_bank_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    webhooks (id) {
        id -> Uuid,
        user_id -> Uuid,
        url -> Text,
        events -> Array<Text>,
        secret -> Text,
        created_at -> Timestamptz,
        failing_since -> Nullable<Timestamptz>,
        disabled_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    webhook_deliveries (webhook_id, seq) {
        webhook_id -> Uuid,
        seq -> Int8,
        status -> Text,
        attempts -> Int4,
        last_status -> Nullable<Int4>,
        last_error -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    web_sessions (id) {
        id -> Uuid,
        user_id -> Uuid,
        created_at -> Timestamptz,
        ended_at -> Nullable<Timestamptz>,
    }
}

diesel::joinable!(account_event_counters -> users (user_id));
diesel::joinable!(account_events -> users (user_id));
diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(chat_mutes -> games (game_id));
diesel::joinable!(chat_mutes -> users (user_id));
diesel::joinable!(game_chat -> games (game_id));
diesel::joinable!(game_chat -> users (user_id));
diesel::joinable!(competition_audit -> competitions (competition_id));
diesel::joinable!(competition_audit -> users (actor_id));
diesel::joinable!(competition_byes -> competitions (competition_id));
diesel::joinable!(competition_entrants -> competitions (competition_id));
diesel::joinable!(competition_entrants -> users (user_id));
diesel::joinable!(competition_games -> competitions (competition_id));
diesel::joinable!(competition_games -> games (game_id));
diesel::joinable!(competition_invitations -> competitions (competition_id));
diesel::joinable!(competitions -> users (organiser_id));
diesel::joinable!(email_links -> users (user_id));
diesel::joinable!(game_actions -> games (game_id));
diesel::joinable!(game_archives -> games (game_id));
diesel::joinable!(game_events -> games (game_id));
diesel::joinable!(game_results -> games (game_id));
diesel::joinable!(game_results -> users (user_id));
diesel::joinable!(game_seats -> games (game_id));
diesel::joinable!(game_seats -> users (user_id));
diesel::joinable!(game_refusals -> games (game_id));
diesel::joinable!(games -> users (created_by));
diesel::joinable!(idempotency_keys -> users (user_id));
diesel::joinable!(rating_history -> games (game_id));
diesel::joinable!(rating_history -> users (user_id));
diesel::joinable!(ratings -> users (user_id));
diesel::joinable!(webhook_deliveries -> webhooks (webhook_id));
diesel::joinable!(webhooks -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    account_event_counters,
    account_events,
    game_archives,
    chat_mutes,
    game_chat,
    competition_audit,
    competition_byes,
    competition_entrants,
    competition_games,
    competition_invitations,
    competitions,
    game_refusals,
    api_tokens,
    email_links,
    game_actions,
    game_events,
    game_results,
    game_seats,
    games,
    idempotency_keys,
    jobs,
    rating_history,
    ratings,
    users,
    web_sessions,
    webhook_deliveries,
    webhooks,
);
