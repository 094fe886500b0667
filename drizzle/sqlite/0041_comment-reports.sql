-- The report-group triggers name report_groups, rebuilt below: they go first and come back, keyed by target, at the end.
DROP TRIGGER `reports_group_delete`;--> statement-breakpoint
DROP TRIGGER `reports_group_insert`;--> statement-breakpoint
DROP TRIGGER `reports_group_update`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_report_groups` (
	`upload_id` text NOT NULL,
	`comment_id` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`reason_rank` integer NOT NULL,
	`report_count` integer NOT NULL,
	`first_at` text NOT NULL,
	PRIMARY KEY(`upload_id`, `comment_id`, `status`)
);
--> statement-breakpoint
INSERT INTO `__new_report_groups`("upload_id", "status", "reason_rank", "report_count", "first_at") SELECT "upload_id", "status", "reason_rank", "report_count", "first_at" FROM `report_groups`;--> statement-breakpoint
DROP TABLE `report_groups`;--> statement-breakpoint
ALTER TABLE `__new_report_groups` RENAME TO `report_groups`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `report_groups_queue_idx` ON `report_groups` (`status`,`reason_rank`,`first_at`,`upload_id`,`comment_id`);--> statement-breakpoint
DROP INDEX `reports_open_reporter_unique`;--> statement-breakpoint
DROP INDEX `reports_open_ip_unique`;--> statement-breakpoint
DROP INDEX `reports_open_fingerprint_unique`;--> statement-breakpoint
DROP INDEX `reports_status_upload_idx`;--> statement-breakpoint
ALTER TABLE `reports` ADD `comment_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_reporter_unique` ON `reports` (`upload_id`,`comment_id`,`reporter_id`) WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_ip_unique` ON `reports` (`upload_id`,`comment_id`,`ip_hash`) WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_fingerprint_unique` ON `reports` (`upload_id`,`comment_id`,`fingerprint`) WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX `reports_status_upload_idx` ON `reports` (`status`,`upload_id`,`comment_id`);--> statement-breakpoint
-- report_groups is keyed by target: an upload's own reports have comment_id '', a comment's
-- reports carry its id (and its upload's). The triggers are those of the report_groups
-- migration with comment_id in the key.
CREATE TRIGGER `reports_group_insert` AFTER INSERT ON `reports`
BEGIN
  INSERT INTO `report_groups` (`upload_id`, `comment_id`, `status`, `reason_rank`, `report_count`, `first_at`)
    VALUES (NEW.`upload_id`, NEW.`comment_id`, NEW.`status`, CASE NEW.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END, 1, NEW.`created_at`)
    ON CONFLICT (`upload_id`, `comment_id`, `status`) DO UPDATE SET `reason_rank` = min(`reason_rank`, excluded.`reason_rank`),
      `report_count` = `report_count` + 1, `first_at` = min(`first_at`, excluded.`first_at`);
END;
--> statement-breakpoint
CREATE TRIGGER `reports_group_update` AFTER UPDATE OF `upload_id`, `comment_id`, `status`, `reason`, `created_at` ON `reports`
  WHEN OLD.`upload_id` IS NOT NEW.`upload_id` OR OLD.`comment_id` IS NOT NEW.`comment_id` OR OLD.`status` IS NOT NEW.`status` OR OLD.`reason` IS NOT NEW.`reason` OR OLD.`created_at` IS NOT NEW.`created_at`
BEGIN
  INSERT INTO `report_groups` (`upload_id`, `comment_id`, `status`, `reason_rank`, `report_count`, `first_at`)
    VALUES (NEW.`upload_id`, NEW.`comment_id`, NEW.`status`, CASE NEW.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END, 1, NEW.`created_at`)
    ON CONFLICT (`upload_id`, `comment_id`, `status`) DO UPDATE SET `reason_rank` = min(`reason_rank`, excluded.`reason_rank`),
      `report_count` = `report_count` + 1, `first_at` = min(`first_at`, excluded.`first_at`);
  DELETE FROM `report_groups` WHERE `upload_id` = OLD.`upload_id` AND `comment_id` = OLD.`comment_id` AND `status` = OLD.`status`
    AND NOT EXISTS (SELECT 1 FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`comment_id` = OLD.`comment_id` AND r.`status` = OLD.`status`);
  UPDATE `report_groups` SET (`reason_rank`, `report_count`, `first_at`) = (SELECT min(CASE r.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END), count(*), min(r.`created_at`)
      FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`comment_id` = OLD.`comment_id` AND r.`status` = OLD.`status`)
    WHERE `upload_id` = OLD.`upload_id` AND `comment_id` = OLD.`comment_id` AND `status` = OLD.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `reports_group_delete` AFTER DELETE ON `reports`
BEGIN
  DELETE FROM `report_groups` WHERE `upload_id` = OLD.`upload_id` AND `comment_id` = OLD.`comment_id` AND `status` = OLD.`status`
    AND NOT EXISTS (SELECT 1 FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`comment_id` = OLD.`comment_id` AND r.`status` = OLD.`status`);
  UPDATE `report_groups` SET (`reason_rank`, `report_count`, `first_at`) = (SELECT min(CASE r.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END), count(*), min(r.`created_at`)
      FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`comment_id` = OLD.`comment_id` AND r.`status` = OLD.`status`)
    WHERE `upload_id` = OLD.`upload_id` AND `comment_id` = OLD.`comment_id` AND `status` = OLD.`status`;
END;
