DROP TABLE game_results;
