-- tag_pairs.public_uploads: how many public uploads carry both tags of each pair, kept by
-- triggers like tags.public_uploads, so every path that links or unlinks a tag, deletes
-- an upload or changes its privacy keeps it right. A cascade from a deleted upload finds
-- the upload gone, so only the upload's own trigger counts it. SQLite runs a row's
-- trigger as that row is written, so the links of one statement meet each other once.
INSERT INTO `tag_pairs` (`first_tag_id`, `second_tag_id`, `public_uploads`)
  SELECT a.`tag_id`, b.`tag_id`, count(*) FROM `upload_tags` a
    JOIN `upload_tags` b ON b.`upload_id` = a.`upload_id` AND b.`tag_id` > a.`tag_id`
    JOIN `uploads` u ON u.`id` = a.`upload_id` AND u.`is_private` = 0
  GROUP BY a.`tag_id`, b.`tag_id`;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_pairs_insert` AFTER INSERT ON `upload_tags`
WHEN EXISTS (SELECT 1 FROM `uploads` WHERE `id` = NEW.`upload_id` AND `is_private` = 0)
BEGIN
  INSERT INTO `tag_pairs` (`first_tag_id`, `second_tag_id`, `public_uploads`)
    SELECT min(NEW.`tag_id`, o.`tag_id`), max(NEW.`tag_id`, o.`tag_id`), 1 FROM `upload_tags` o
      WHERE o.`upload_id` = NEW.`upload_id` AND o.`tag_id` <> NEW.`tag_id`
    ON CONFLICT (`first_tag_id`, `second_tag_id`) DO UPDATE SET `public_uploads` = `public_uploads` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_pairs_delete` AFTER DELETE ON `upload_tags`
WHEN EXISTS (SELECT 1 FROM `uploads` WHERE `id` = OLD.`upload_id` AND `is_private` = 0)
BEGIN
  UPDATE `tag_pairs` SET `public_uploads` = `public_uploads` - 1
    WHERE (`first_tag_id`, `second_tag_id`) IN (SELECT min(OLD.`tag_id`, o.`tag_id`), max(OLD.`tag_id`, o.`tag_id`)
      FROM `upload_tags` o WHERE o.`upload_id` = OLD.`upload_id` AND o.`tag_id` <> OLD.`tag_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_tag_pairs_delete` BEFORE DELETE ON `uploads`
WHEN OLD.`is_private` = 0
BEGIN
  UPDATE `tag_pairs` SET `public_uploads` = `public_uploads` - 1
    WHERE (`first_tag_id`, `second_tag_id`) IN (SELECT a.`tag_id`, b.`tag_id` FROM `upload_tags` a
      JOIN `upload_tags` b ON b.`upload_id` = a.`upload_id` AND b.`tag_id` > a.`tag_id` WHERE a.`upload_id` = OLD.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_tag_pairs_privacy` AFTER UPDATE OF `is_private` ON `uploads`
WHEN OLD.`is_private` <> NEW.`is_private`
BEGIN
  INSERT INTO `tag_pairs` (`first_tag_id`, `second_tag_id`, `public_uploads`)
    SELECT a.`tag_id`, b.`tag_id`, (CASE WHEN NEW.`is_private` = 0 THEN 1 ELSE -1 END) FROM `upload_tags` a
      JOIN `upload_tags` b ON b.`upload_id` = a.`upload_id` AND b.`tag_id` > a.`tag_id` WHERE a.`upload_id` = NEW.`id`
    ON CONFLICT (`first_tag_id`, `second_tag_id`) DO UPDATE SET `public_uploads` = `public_uploads` + excluded.`public_uploads`;
END;
