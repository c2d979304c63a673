DROP TABLE competition_audit;
DROP TABLE competition_byes;
DROP TABLE competition_games;
DROP TABLE competition_entrants;
DROP TABLE competition_invitations;
DROP TABLE competitions;
