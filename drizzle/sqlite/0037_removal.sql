CREATE TABLE `banned_media` (
	`id` text PRIMARY KEY NOT NULL,
	`sha256` text NOT NULL,
	`source_sha256` text,
	`phash` text,
	`phash_band0` text GENERATED ALWAYS AS (substr(phash, 1, 4)) VIRTUAL,
	`phash_band1` text GENERATED ALWAYS AS (substr(phash, 5, 4)) VIRTUAL,
	`phash_band2` text GENERATED ALWAYS AS (substr(phash, 9, 4)) VIRTUAL,
	`phash_band3` text GENERATED ALWAYS AS (substr(phash, 13, 4)) VIRTUAL,
	`upload_id` text,
	`reason` text,
	`created_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `banned_media_sha256_idx` ON `banned_media` (`sha256`);--> statement-breakpoint
CREATE INDEX `banned_media_source_sha256_idx` ON `banned_media` (`source_sha256`);--> statement-breakpoint
CREATE INDEX `banned_media_phash_band0_idx` ON `banned_media` (`phash_band0`);--> statement-breakpoint
CREATE INDEX `banned_media_phash_band1_idx` ON `banned_media` (`phash_band1`);--> statement-breakpoint
CREATE INDEX `banned_media_phash_band2_idx` ON `banned_media` (`phash_band2`);--> statement-breakpoint
CREATE INDEX `banned_media_phash_band3_idx` ON `banned_media` (`phash_band3`);--> statement-breakpoint
CREATE INDEX `banned_media_newest_idx` ON `banned_media` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `removed_uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`description` text,
	`uploader_id` text,
	`upload_type` text,
	`removed_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`removed_by` text NOT NULL,
	`reason` text,
	FOREIGN KEY (`uploader_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
DROP TRIGGER `reports_group_delete`;--> statement-breakpoint
DROP TRIGGER `reports_group_insert`;--> statement-breakpoint
DROP TRIGGER `reports_group_update`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_report_groups` (
	`upload_id` text NOT NULL,
	`status` text NOT NULL,
	`reason_rank` integer NOT NULL,
	`report_count` integer NOT NULL,
	`first_at` text NOT NULL,
	PRIMARY KEY(`upload_id`, `status`)
);
--> statement-breakpoint
INSERT INTO `__new_report_groups`("upload_id", "status", "reason_rank", "report_count", "first_at") SELECT "upload_id", "status", "reason_rank", "report_count", "first_at" FROM `report_groups`;--> statement-breakpoint
DROP TABLE `report_groups`;--> statement-breakpoint
ALTER TABLE `__new_report_groups` RENAME TO `report_groups`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `report_groups_queue_idx` ON `report_groups` (`status`,`reason_rank`,`first_at`,`upload_id`);--> statement-breakpoint
CREATE TABLE `__new_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`upload_id` text NOT NULL,
	`reporter_id` text,
	`ip_hash` text,
	`fingerprint` text,
	`reason` text NOT NULL,
	`details` text,
	`status` text DEFAULT 'open' NOT NULL,
	`claimed_by` text,
	`resolution` text,
	`resolved_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`claimed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_reports`("id", "upload_id", "reporter_id", "ip_hash", "fingerprint", "reason", "details", "status", "claimed_by", "resolution", "resolved_at", "created_at") SELECT "id", "upload_id", "reporter_id", "ip_hash", "fingerprint", "reason", "details", "status", "claimed_by", "resolution", "resolved_at", "created_at" FROM `reports`;--> statement-breakpoint
DROP TABLE `reports`;--> statement-breakpoint
ALTER TABLE `__new_reports` RENAME TO `reports`;--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_reporter_unique` ON `reports` (`upload_id`,`reporter_id`) WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_ip_unique` ON `reports` (`upload_id`,`ip_hash`) WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX `reports_open_fingerprint_unique` ON `reports` (`upload_id`,`fingerprint`) WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX `reports_status_upload_idx` ON `reports` (`status`,`upload_id`);--> statement-breakpoint
CREATE INDEX `reports_reporter_idx` ON `reports` (`reporter_id`);--> statement-breakpoint
CREATE TRIGGER `reports_group_delete` AFTER DELETE ON `reports`
BEGIN
  DELETE FROM `report_groups` WHERE `upload_id` = OLD.`upload_id` AND `status` = OLD.`status`
    AND NOT EXISTS (SELECT 1 FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`status` = OLD.`status`);
  UPDATE `report_groups` SET (`reason_rank`, `report_count`, `first_at`) = (SELECT min(CASE r.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END), count(*), min(r.`created_at`)
      FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`status` = OLD.`status`)
    WHERE `upload_id` = OLD.`upload_id` AND `status` = OLD.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `reports_group_insert` AFTER INSERT ON `reports`
BEGIN
  INSERT INTO `report_groups` (`upload_id`, `status`, `reason_rank`, `report_count`, `first_at`)
    VALUES (NEW.`upload_id`, NEW.`status`, CASE NEW.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END, 1, NEW.`created_at`)
    ON CONFLICT (`upload_id`, `status`) DO UPDATE SET `reason_rank` = min(`reason_rank`, excluded.`reason_rank`),
      `report_count` = `report_count` + 1, `first_at` = min(`first_at`, excluded.`first_at`);
END;
--> statement-breakpoint
CREATE TRIGGER `reports_group_update` AFTER UPDATE OF `upload_id`, `status`, `reason`, `created_at` ON `reports`
  WHEN OLD.`upload_id` IS NOT NEW.`upload_id` OR OLD.`status` IS NOT NEW.`status` OR OLD.`reason` IS NOT NEW.`reason` OR OLD.`created_at` IS NOT NEW.`created_at`
BEGIN
  INSERT INTO `report_groups` (`upload_id`, `status`, `reason_rank`, `report_count`, `first_at`)
    VALUES (NEW.`upload_id`, NEW.`status`, CASE NEW.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END, 1, NEW.`created_at`)
    ON CONFLICT (`upload_id`, `status`) DO UPDATE SET `reason_rank` = min(`reason_rank`, excluded.`reason_rank`),
      `report_count` = `report_count` + 1, `first_at` = min(`first_at`, excluded.`first_at`);
  DELETE FROM `report_groups` WHERE `upload_id` = OLD.`upload_id` AND `status` = OLD.`status`
    AND NOT EXISTS (SELECT 1 FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`status` = OLD.`status`);
  UPDATE `report_groups` SET (`reason_rank`, `report_count`, `first_at`) = (SELECT min(CASE r.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END), count(*), min(r.`created_at`)
      FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`status` = OLD.`status`)
    WHERE `upload_id` = OLD.`upload_id` AND `status` = OLD.`status`;
END;
