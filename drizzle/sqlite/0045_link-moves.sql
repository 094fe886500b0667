-- A link can move to another tag (an UPDATE of its tag_id): an edit that swaps a tag moves
-- a link instead of deleting one and inserting another (docs/database.md, "Kept counts").
-- The counts follow a move as they follow a delete and an insert.
--
-- tags.public_uploads: one less for the old tag, one more for the new, each when its
-- upload is public.
CREATE TRIGGER `upload_tags_public_count_move` AFTER UPDATE OF `upload_id`, `tag_id` ON `upload_tags`
WHEN OLD.`tag_id` IS NOT NEW.`tag_id` OR OLD.`upload_id` IS NOT NEW.`upload_id`
BEGIN
  UPDATE `tags` SET `public_uploads` = `public_uploads` - 1
    WHERE `id` = OLD.`tag_id` AND EXISTS (SELECT 1 FROM `uploads` WHERE `id` = OLD.`upload_id` AND `is_private` = 0);
  UPDATE `tags` SET `public_uploads` = `public_uploads` + 1
    WHERE `id` = NEW.`tag_id` AND EXISTS (SELECT 1 FROM `uploads` WHERE `id` = NEW.`upload_id` AND `is_private` = 0);
END;
--> statement-breakpoint
-- tag_pairs.public_uploads: the moved link's pairs with the upload's other links (as the
-- rows moved before it in the same statement left them) lose one under the old tag and
-- gain one under the new.
CREATE TRIGGER `upload_tags_tag_pairs_move` AFTER UPDATE OF `upload_id`, `tag_id` ON `upload_tags`
WHEN OLD.`tag_id` IS NOT NEW.`tag_id` OR OLD.`upload_id` IS NOT NEW.`upload_id`
BEGIN
  UPDATE `tag_pairs` SET `public_uploads` = `public_uploads` - 1
    WHERE (`first_tag_id`, `second_tag_id`) IN (SELECT min(OLD.`tag_id`, o.`tag_id`), max(OLD.`tag_id`, o.`tag_id`)
      FROM `upload_tags` o WHERE o.`upload_id` = OLD.`upload_id` AND o.`rowid` <> NEW.`rowid`)
    AND EXISTS (SELECT 1 FROM `uploads` WHERE `id` = OLD.`upload_id` AND `is_private` = 0);
  INSERT INTO `tag_pairs` (`first_tag_id`, `second_tag_id`, `public_uploads`)
    SELECT min(NEW.`tag_id`, o.`tag_id`), max(NEW.`tag_id`, o.`tag_id`), 1 FROM `upload_tags` o
      WHERE o.`upload_id` = NEW.`upload_id` AND o.`rowid` <> NEW.`rowid`
        AND EXISTS (SELECT 1 FROM `uploads` WHERE `id` = NEW.`upload_id` AND `is_private` = 0)
    ON CONFLICT (`first_tag_id`, `second_tag_id`) DO UPDATE SET `public_uploads` = `public_uploads` + 1;
END;
