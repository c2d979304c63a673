DROP TABLE game_chat;
DROP TABLE account_events;
DROP TABLE account_event_counters;
