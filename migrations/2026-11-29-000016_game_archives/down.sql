-- The archived records go back to one row per action and per event.
INSERT INTO game_actions (game_id, seq, seat, action, created_at)
SELECT a.game_id, (x->>0)::bigint, (x->>1)::smallint, x->2, (x->>3)::timestamptz
FROM game_archives a, jsonb_array_elements(a.actions) x;
INSERT INTO game_events (game_id, seq, action_seq, audience, event, created_at)
SELECT a.game_id, (x->>0)::bigint, (x->>1)::bigint, x->2, x->3, (x->>4)::timestamptz
FROM game_archives a, jsonb_array_elements(a.events) x;
DROP TABLE game_archives;
