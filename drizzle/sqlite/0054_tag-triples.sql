-- tag_triples: public uploads carrying all three tags of a triple, kept only for the
-- triples a search of `(a OR b) c` has asked for (server/services/lists/triples.ts adds a
-- row with its first count; none exist after this migration). Kept like tag_pairs, by
-- the same five changes: a link added, deleted or moved, an upload's privacy changed,
-- an upload deleted. A link changed looks up the triples holding its tag first (the
-- WHEN), through the key and the second and third indexes: with no triple of its tag,
-- that is all it costs. WITHOUT ROWID: a count is one b-tree written.
CREATE TABLE `tag_triples` (
	`first_tag_id` text NOT NULL,
	`second_tag_id` text NOT NULL,
	`third_tag_id` text NOT NULL,
	`public_uploads` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`first_tag_id`, `second_tag_id`, `third_tag_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `tag_triples_second_idx` ON `tag_triples` (`second_tag_id`);--> statement-breakpoint
CREATE INDEX `tag_triples_third_idx` ON `tag_triples` (`third_tag_id`);--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_triples_insert` AFTER INSERT ON `upload_tags`
WHEN EXISTS (SELECT 1 FROM `tag_triples` WHERE `first_tag_id` = NEW.`tag_id` OR `second_tag_id` = NEW.`tag_id` OR `third_tag_id` = NEW.`tag_id`)
  AND EXISTS (SELECT 1 FROM `uploads` WHERE `id` = NEW.`upload_id` AND `is_private` = 0)
BEGIN
  UPDATE `tag_triples` SET `public_uploads` = `public_uploads` + 1
    WHERE (`first_tag_id` = NEW.`tag_id` OR `second_tag_id` = NEW.`tag_id` OR `third_tag_id` = NEW.`tag_id`)
      AND (SELECT count(*) FROM `upload_tags` o WHERE o.`upload_id` = NEW.`upload_id`
        AND o.`tag_id` IN (`first_tag_id`, `second_tag_id`, `third_tag_id`)) = 3;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_triples_delete` AFTER DELETE ON `upload_tags`
WHEN EXISTS (SELECT 1 FROM `tag_triples` WHERE `first_tag_id` = OLD.`tag_id` OR `second_tag_id` = OLD.`tag_id` OR `third_tag_id` = OLD.`tag_id`)
  AND EXISTS (SELECT 1 FROM `uploads` WHERE `id` = OLD.`upload_id` AND `is_private` = 0)
BEGIN
  UPDATE `tag_triples` SET `public_uploads` = `public_uploads` - 1
    WHERE (`first_tag_id` = OLD.`tag_id` OR `second_tag_id` = OLD.`tag_id` OR `third_tag_id` = OLD.`tag_id`)
      AND (SELECT count(*) FROM `upload_tags` o WHERE o.`upload_id` = OLD.`upload_id`
        AND o.`tag_id` IN (`first_tag_id`, `second_tag_id`, `third_tag_id`)) = 2;
END;
--> statement-breakpoint
CREATE TRIGGER `upload_tags_tag_triples_move` AFTER UPDATE OF `upload_id`, `tag_id` ON `upload_tags`
WHEN (OLD.`tag_id` IS NOT NEW.`tag_id` OR OLD.`upload_id` IS NOT NEW.`upload_id`)
  AND EXISTS (SELECT 1 FROM `tag_triples` WHERE `first_tag_id` IN (OLD.`tag_id`, NEW.`tag_id`)
    OR `second_tag_id` IN (OLD.`tag_id`, NEW.`tag_id`) OR `third_tag_id` IN (OLD.`tag_id`, NEW.`tag_id`))
BEGIN
  UPDATE `tag_triples` SET `public_uploads` = `public_uploads` - 1
    WHERE (`first_tag_id` = OLD.`tag_id` OR `second_tag_id` = OLD.`tag_id` OR `third_tag_id` = OLD.`tag_id`)
      AND EXISTS (SELECT 1 FROM `uploads` WHERE `id` = OLD.`upload_id` AND `is_private` = 0)
      AND (SELECT count(*) FROM `upload_tags` o WHERE o.`upload_id` = OLD.`upload_id` AND o.`rowid` <> NEW.`rowid`
        AND o.`tag_id` IN (`first_tag_id`, `second_tag_id`, `third_tag_id`)) = 2;
  UPDATE `tag_triples` SET `public_uploads` = `public_uploads` + 1
    WHERE (`first_tag_id` = NEW.`tag_id` OR `second_tag_id` = NEW.`tag_id` OR `third_tag_id` = NEW.`tag_id`)
      AND EXISTS (SELECT 1 FROM `uploads` WHERE `id` = NEW.`upload_id` AND `is_private` = 0)
      AND (SELECT count(*) FROM `upload_tags` o WHERE o.`upload_id` = NEW.`upload_id`
        AND o.`tag_id` IN (`first_tag_id`, `second_tag_id`, `third_tag_id`)) = 3;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_tag_triples_privacy` AFTER UPDATE OF `is_private` ON `uploads`
WHEN OLD.`is_private` <> NEW.`is_private`
BEGIN
  UPDATE `tag_triples` SET `public_uploads` = `public_uploads` + (CASE WHEN NEW.`is_private` = 0 THEN 1 ELSE -1 END)
    WHERE `first_tag_id` IN (SELECT `tag_id` FROM `upload_tags` WHERE `upload_id` = NEW.`id`)
      AND (SELECT count(*) FROM `upload_tags` o WHERE o.`upload_id` = NEW.`id`
        AND o.`tag_id` IN (`second_tag_id`, `third_tag_id`)) = 2;
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_tag_triples_delete` BEFORE DELETE ON `uploads`
WHEN OLD.`is_private` = 0
BEGIN
  UPDATE `tag_triples` SET `public_uploads` = `public_uploads` - 1
    WHERE `first_tag_id` IN (SELECT `tag_id` FROM `upload_tags` WHERE `upload_id` = OLD.`id`)
      AND (SELECT count(*) FROM `upload_tags` o WHERE o.`upload_id` = OLD.`id`
        AND o.`tag_id` IN (`second_tag_id`, `third_tag_id`)) = 2;
END;
