-- tags.public_uploads: how many public uploads carry each tag, kept by triggers so
-- every path that adds or removes a tag, deletes an upload or changes its privacy
-- keeps it right. A cascade from a deleted upload finds the upload gone, so only
-- the upload's own trigger counts it.
UPDATE `tags` SET `public_uploads` = (SELECT count(*) FROM `upload_tags` ut JOIN `uploads` u ON u.`id` = ut.`upload_id` AND u.`is_private` = 0 WHERE ut.`tag_id` = `tags`.`id`);
--> statement-breakpoint
CREATE TRIGGER `upload_tags_public_count_insert` AFTER INSERT ON `upload_tags`
WHEN EXISTS (SELECT 1 FROM `uploads` WHERE `id` = NEW.`upload_id` AND `is_private` = 0)
BEGIN
  UPDATE `tags` SET `public_uploads` = `public_uploads` + 1 WHERE `id` = NEW.`tag_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_public_count_delete` AFTER DELETE ON `upload_tags`
WHEN EXISTS (SELECT 1 FROM `uploads` WHERE `id` = OLD.`upload_id` AND `is_private` = 0)
BEGIN
  UPDATE `tags` SET `public_uploads` = `public_uploads` - 1 WHERE `id` = OLD.`tag_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_public_tag_count_delete` BEFORE DELETE ON `uploads`
WHEN OLD.`is_private` = 0
BEGIN
  UPDATE `tags` SET `public_uploads` = `public_uploads` - 1 WHERE `id` IN (SELECT `tag_id` FROM `upload_tags` WHERE `upload_id` = OLD.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_public_tag_count_privacy` AFTER UPDATE OF `is_private` ON `uploads`
WHEN OLD.`is_private` <> NEW.`is_private`
BEGIN
  UPDATE `tags` SET `public_uploads` = `public_uploads` + (CASE WHEN NEW.`is_private` = 0 THEN 1 ELSE -1 END)
    WHERE `id` IN (SELECT `tag_id` FROM `upload_tags` WHERE `upload_id` = NEW.`id`);
END;
