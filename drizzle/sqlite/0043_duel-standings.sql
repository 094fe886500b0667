-- This or That's standings move out of the upload's row into duel_standings, one narrow
-- row per image: a judgement then rewrites two small rows and their three indexes, not
-- two wide upload rows. The judges' unique indexes keep only the rows that name that
-- judge (an account's judgement was also in the visitors' two, under NULL).
CREATE TABLE `duel_standings` (
	`upload_id` text PRIMARY KEY NOT NULL,
	`in_pool` integer NOT NULL,
	`strength` real DEFAULT 1500 NOT NULL,
	`wins` integer DEFAULT 0 NOT NULL,
	`losses` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `duel_standings` (`upload_id`, `in_pool`, `strength`, `wins`, `losses`)
  SELECT `id`, CASE WHEN `is_private` = 0 THEN 1 ELSE 0 END, `duel_strength`, `duel_wins`, `duel_losses` FROM `uploads` WHERE `upload_type` = 'image';
--> statement-breakpoint
CREATE INDEX `duel_standings_pool_idx` ON `duel_standings` (`strength`,`upload_id`) WHERE "duel_standings"."in_pool" = 1;--> statement-breakpoint
CREATE INDEX `duel_standings_ranked_idx` ON `duel_standings` ("strength" desc,"upload_id" desc) WHERE "duel_standings"."in_pool" = 1 AND "duel_standings"."wins" + "duel_standings"."losses" >= 5;--> statement-breakpoint
-- duel_standings.in_pool: a kept copy of "the image is public" (server/database/kept-counts.ts).
CREATE TRIGGER `uploads_duel_standing_insert` AFTER INSERT ON `uploads`
WHEN NEW.`upload_type` = 'image'
BEGIN
  INSERT INTO `duel_standings` (`upload_id`, `in_pool`) VALUES (NEW.`id`, CASE WHEN NEW.`is_private` = 0 THEN 1 ELSE 0 END);
END;
--> statement-breakpoint
CREATE TRIGGER `uploads_duel_standing_privacy` AFTER UPDATE OF `is_private` ON `uploads`
WHEN OLD.`is_private` <> NEW.`is_private` AND NEW.`upload_type` = 'image'
BEGIN
  UPDATE `duel_standings` SET `in_pool` = CASE WHEN NEW.`is_private` = 0 THEN 1 ELSE 0 END WHERE `upload_id` = NEW.`id`;
END;
--> statement-breakpoint
DROP INDEX `uploads_duel_pool_idx`;--> statement-breakpoint
DROP INDEX `uploads_duel_ranked_idx`;--> statement-breakpoint
ALTER TABLE `uploads` DROP COLUMN `duel_strength`;--> statement-breakpoint
ALTER TABLE `uploads` DROP COLUMN `duel_wins`;--> statement-breakpoint
ALTER TABLE `uploads` DROP COLUMN `duel_losses`;--> statement-breakpoint
DROP INDEX `duel_judgements_user_pair_unique`;--> statement-breakpoint
DROP INDEX `duel_judgements_fingerprint_pair_unique`;--> statement-breakpoint
DROP INDEX `duel_judgements_ip_pair_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `duel_judgements_user_pair_unique` ON `duel_judgements` (`user_id`,`low_id`,`high_id`) WHERE "duel_judgements"."user_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `duel_judgements_fingerprint_pair_unique` ON `duel_judgements` (`fingerprint`,`low_id`,`high_id`) WHERE "duel_judgements"."fingerprint" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `duel_judgements_ip_pair_unique` ON `duel_judgements` (`ip_hash`,`low_id`,`high_id`) WHERE "duel_judgements"."ip_hash" IS NOT NULL;
