CREATE TABLE `report_groups` (
	`upload_id` text NOT NULL,
	`status` text NOT NULL,
	`reason_rank` integer NOT NULL,
	`report_count` integer NOT NULL,
	`first_at` text NOT NULL,
	PRIMARY KEY(`upload_id`, `status`),
	FOREIGN KEY (`upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `report_groups_queue_idx` ON `report_groups` (`status`,`reason_rank`,`first_at`,`upload_id`);
--> statement-breakpoint
-- report_groups: one row per reported upload and report status (how many reports, the rank of
-- the gravest reason: 0 minor_safety, 1 illegal, 2 harassment, 3 copyright, 4 spam, 5 other,
-- and when the first came in), kept by triggers on reports so every path that files, claims,
-- resolves or deletes a report (an upload or account deleted with its reports) keeps it right.
-- A report joining a group adds to its row in one upsert; a report leaving one recounts the
-- group from its reports (a few rows on the status and upload index) and drops the row once
-- it is empty.
INSERT INTO `report_groups` (`upload_id`, `status`, `reason_rank`, `report_count`, `first_at`)
  SELECT r.`upload_id`, r.`status`, min(CASE r.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END), count(*), min(r.`created_at`) FROM `reports` r GROUP BY r.`upload_id`, r.`status`;
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
--> statement-breakpoint
CREATE TRIGGER `reports_group_delete` AFTER DELETE ON `reports`
BEGIN
  DELETE FROM `report_groups` WHERE `upload_id` = OLD.`upload_id` AND `status` = OLD.`status`
    AND NOT EXISTS (SELECT 1 FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`status` = OLD.`status`);
  UPDATE `report_groups` SET (`reason_rank`, `report_count`, `first_at`) = (SELECT min(CASE r.`reason` WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END), count(*), min(r.`created_at`)
      FROM `reports` r WHERE r.`upload_id` = OLD.`upload_id` AND r.`status` = OLD.`status`)
    WHERE `upload_id` = OLD.`upload_id` AND `status` = OLD.`status`;
END;
