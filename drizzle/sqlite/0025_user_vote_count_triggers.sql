-- user_vote_counts.votes: how many votes each account has cast, by the first character of
-- the upload id, kept by triggers on votes so every path that casts, takes back or deletes
-- a vote (an upload or account deleted with its votes) keeps it right. A vote taken away
-- only lowers a row that is there: an account deleted takes its rows with it, whatever
-- order the cascades run in.
INSERT INTO `user_vote_counts` (`user_id`, `shard`, `votes`)
  SELECT `user_id`, substr(`upload_id`, 1, 1), count(*) FROM `votes` GROUP BY `user_id`, substr(`upload_id`, 1, 1);
--> statement-breakpoint
CREATE TRIGGER `votes_user_count_insert` AFTER INSERT ON `votes`
BEGIN
  INSERT INTO `user_vote_counts` (`user_id`, `shard`, `votes`) VALUES (NEW.`user_id`, substr(NEW.`upload_id`, 1, 1), 1)
    ON CONFLICT (`user_id`, `shard`) DO UPDATE SET `votes` = `votes` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `votes_user_count_delete` AFTER DELETE ON `votes`
BEGIN
  UPDATE `user_vote_counts` SET `votes` = `votes` - 1 WHERE `user_id` = OLD.`user_id` AND `shard` = substr(OLD.`upload_id`, 1, 1);
END;
