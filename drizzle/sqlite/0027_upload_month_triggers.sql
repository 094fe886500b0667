-- upload_months.public_uploads: kept like upload_days (the upload_day_triggers migration),
-- by month instead of day.
CREATE TRIGGER `uploads_month_count_insert` AFTER INSERT ON `uploads`
WHEN NEW.`is_private` = 0
BEGIN
  INSERT INTO `upload_months` (`month`, `public_uploads`) VALUES (substr(NEW.`created_at`, 1, 7), 1)
    ON CONFLICT (`month`) DO UPDATE SET `public_uploads` = `public_uploads` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_month_count_delete` AFTER DELETE ON `uploads`
WHEN OLD.`is_private` = 0
BEGIN
  UPDATE `upload_months` SET `public_uploads` = `public_uploads` - 1 WHERE `month` = substr(OLD.`created_at`, 1, 7);
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_month_count_update` AFTER UPDATE OF `is_private`, `created_at` ON `uploads`
WHEN OLD.`is_private` <> NEW.`is_private` OR OLD.`created_at` <> NEW.`created_at`
BEGIN
  UPDATE `upload_months` SET `public_uploads` = `public_uploads` - 1 WHERE `month` = substr(OLD.`created_at`, 1, 7) AND OLD.`is_private` = 0;
  INSERT INTO `upload_months` (`month`, `public_uploads`) SELECT substr(NEW.`created_at`, 1, 7), 1 WHERE NEW.`is_private` = 0
    ON CONFLICT (`month`) DO UPDATE SET `public_uploads` = `public_uploads` + 1;
END;
