-- uploads.tag_ids: the upload's tag ids in the order they were added (position),
-- comma-separated, kept by triggers on upload_tags so every path that links, moves or
-- unlinks a tag keeps it right. A cascade from a deleted upload finds the upload gone.
UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',' ORDER BY `position`) FROM `upload_tags` WHERE `upload_id` = `uploads`.`id`), '')
  WHERE `id` IN (SELECT `upload_id` FROM `upload_tags`);
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_ids_insert` AFTER INSERT ON `upload_tags`
BEGIN
  UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',' ORDER BY `position`) FROM `upload_tags` WHERE `upload_id` = NEW.`upload_id`), '')
    WHERE `id` = NEW.`upload_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_ids_delete` AFTER DELETE ON `upload_tags`
BEGIN
  UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',' ORDER BY `position`) FROM `upload_tags` WHERE `upload_id` = OLD.`upload_id`), '')
    WHERE `id` = OLD.`upload_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_ids_update` AFTER UPDATE ON `upload_tags`
BEGIN
  UPDATE `uploads` SET `tag_ids` = coalesce((SELECT group_concat(`tag_id`, ',' ORDER BY `position`) FROM `upload_tags` WHERE `upload_id` = `uploads`.`id`), '')
    WHERE `id` IN (OLD.`upload_id`, NEW.`upload_id`);
END;
