DROP TABLE chat_mutes;
