-- upload_tags.upload_created_at and upload_is_private: the upload's, kept by triggers so
-- every path that links a tag or changes an upload's privacy (or date) keeps them right,
-- and a tag's public uploads newest first are one range of upload_tags_tag_newest_idx.
-- First the tag ids' trigger follows only the columns they are made of: the copies
-- written below would otherwise rewrite the upload once per link.
DROP TRIGGER `upload_tags_tag_ids_update`;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_ids_update` AFTER UPDATE OF `upload_id`, `tag_id`, `position` ON `upload_tags`
BEGIN
  UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',' ORDER BY `position`) FROM `upload_tags` WHERE `upload_id` = `uploads`.`id`), '')
    WHERE `id` IN (OLD.`upload_id`, NEW.`upload_id`);
END;
--> statement-breakpoint
UPDATE `upload_tags` SET `upload_created_at` = (SELECT `created_at` FROM `uploads` WHERE `id` = `upload_tags`.`upload_id`),
  `upload_is_private` = (SELECT `is_private` FROM `uploads` WHERE `id` = `upload_tags`.`upload_id`);
--> statement-breakpoint
CREATE TRIGGER `upload_tags_upload_order_insert` AFTER INSERT ON `upload_tags`
BEGIN
  UPDATE `upload_tags` SET `upload_created_at` = (SELECT `created_at` FROM `uploads` WHERE `id` = NEW.`upload_id`),
    `upload_is_private` = (SELECT `is_private` FROM `uploads` WHERE `id` = NEW.`upload_id`)
    WHERE `upload_id` = NEW.`upload_id` AND `tag_id` = NEW.`tag_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_tag_order_update` AFTER UPDATE OF `is_private`, `created_at` ON `uploads`
  WHEN OLD.`is_private` IS NOT NEW.`is_private` OR OLD.`created_at` IS NOT NEW.`created_at`
BEGIN
  UPDATE `upload_tags` SET `upload_created_at` = NEW.`created_at`, `upload_is_private` = NEW.`is_private` WHERE `upload_id` = NEW.`id`;
END;
