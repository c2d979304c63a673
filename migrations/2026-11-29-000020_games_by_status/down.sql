DROP INDEX games_by_status_kind_finished;
DROP INDEX games_by_status_finished;
DROP INDEX games_by_status_created;
