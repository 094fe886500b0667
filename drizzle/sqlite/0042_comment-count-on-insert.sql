-- uploads.comments: a new comment adds one when it counts (not deleted, author not
-- shadow-banned) instead of recounting the upload's comments, which grew with every
-- comment on it. The other triggers still recount: a delete, an author set to nobody or a
-- shadow ban is rare, and the author's row may already be gone.
DROP TRIGGER `comments_count_insert`;
--> statement-breakpoint
CREATE TRIGGER `comments_count_insert` AFTER INSERT ON `comments`
WHEN NEW.`deleted` = 0 AND NOT EXISTS (SELECT 1 FROM `users` us WHERE us.`id` = NEW.`author_id` AND us.`shadow_banned` = 1)
BEGIN
  UPDATE `uploads` SET `comments` = `comments` + 1 WHERE `id` = NEW.`upload_id`;
END;
