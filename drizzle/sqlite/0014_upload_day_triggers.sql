-- upload_days.public_uploads: public uploads per UTC day of created_at, kept by triggers
-- on uploads so every path that adds or deletes an upload or changes its privacy keeps it
-- right (an account deleted with its uploads takes its days' counts down with it).
INSERT INTO `upload_days` (`day`, `public_uploads`)
  SELECT substr(`created_at`, 1, 10), count(*) FROM `uploads` WHERE `is_private` = 0 GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER `uploads_day_count_insert` AFTER INSERT ON `uploads`
WHEN NEW.`is_private` = 0
BEGIN
  INSERT OR IGNORE INTO `upload_days` (`day`, `public_uploads`) VALUES (substr(NEW.`created_at`, 1, 10), 0);
  UPDATE `upload_days` SET `public_uploads` = `public_uploads` + 1 WHERE `day` = substr(NEW.`created_at`, 1, 10);
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_day_count_delete` AFTER DELETE ON `uploads`
WHEN OLD.`is_private` = 0
BEGIN
  UPDATE `upload_days` SET `public_uploads` = `public_uploads` - 1 WHERE `day` = substr(OLD.`created_at`, 1, 10);
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_day_count_update` AFTER UPDATE OF `is_private`, `created_at` ON `uploads`
WHEN OLD.`is_private` <> NEW.`is_private` OR OLD.`created_at` <> NEW.`created_at`
BEGIN
  UPDATE `upload_days` SET `public_uploads` = `public_uploads` - 1 WHERE `day` = substr(OLD.`created_at`, 1, 10) AND OLD.`is_private` = 0;
  INSERT OR IGNORE INTO `upload_days` (`day`, `public_uploads`) SELECT substr(NEW.`created_at`, 1, 10), 0 WHERE NEW.`is_private` = 0;
  UPDATE `upload_days` SET `public_uploads` = `public_uploads` + 1 WHERE `day` = substr(NEW.`created_at`, 1, 10) AND NEW.`is_private` = 0;
END;
