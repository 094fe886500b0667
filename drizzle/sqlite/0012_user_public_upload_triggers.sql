-- users.public_uploads: how many public uploads each account has, kept by triggers on
-- uploads so every path that adds or deletes an upload, changes its privacy or its
-- owner keeps it right (an account deleted with its uploads takes its count along).
UPDATE `users` SET `public_uploads` = (SELECT count(*) FROM `uploads` WHERE `user_id` = `users`.`id` AND `is_private` = 0);
--> statement-breakpoint
CREATE TRIGGER `uploads_user_public_count_insert` AFTER INSERT ON `uploads`
WHEN NEW.`is_private` = 0
BEGIN
  UPDATE `users` SET `public_uploads` = `public_uploads` + 1 WHERE `id` = NEW.`user_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_user_public_count_delete` AFTER DELETE ON `uploads`
WHEN OLD.`is_private` = 0
BEGIN
  UPDATE `users` SET `public_uploads` = `public_uploads` - 1 WHERE `id` = OLD.`user_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_user_public_count_update` AFTER UPDATE OF `is_private`, `user_id` ON `uploads`
WHEN OLD.`is_private` <> NEW.`is_private` OR OLD.`user_id` <> NEW.`user_id`
BEGIN
  UPDATE `users` SET `public_uploads` = `public_uploads` - 1 WHERE `id` = OLD.`user_id` AND OLD.`is_private` = 0;
  UPDATE `users` SET `public_uploads` = `public_uploads` + 1 WHERE `id` = NEW.`user_id` AND NEW.`is_private` = 0;
END;
