CREATE TABLE "banned_media" (
	"id" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"source_sha256" text,
	"phash" text,
	"phash_band0" text GENERATED ALWAYS AS (substr(phash, 1, 4)) STORED,
	"phash_band1" text GENERATED ALWAYS AS (substr(phash, 5, 4)) STORED,
	"phash_band2" text GENERATED ALWAYS AS (substr(phash, 9, 4)) STORED,
	"phash_band3" text GENERATED ALWAYS AS (substr(phash, 13, 4)) STORED,
	"upload_id" text,
	"reason" text,
	"created_by" text,
	"created_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "removed_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"description" text,
	"uploader_id" text,
	"upload_type" text,
	"removed_at" text DEFAULT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') NOT NULL,
	"removed_by" text NOT NULL,
	"reason" text
);
--> statement-breakpoint
ALTER TABLE "report_groups" DROP CONSTRAINT "report_groups_upload_id_uploads_id_fk";
--> statement-breakpoint
ALTER TABLE "reports" DROP CONSTRAINT "reports_upload_id_uploads_id_fk";
--> statement-breakpoint
ALTER TABLE "banned_media" ADD CONSTRAINT "banned_media_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "removed_uploads" ADD CONSTRAINT "removed_uploads_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "banned_media_sha256_idx" ON "banned_media" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "banned_media_source_sha256_idx" ON "banned_media" USING btree ("source_sha256");--> statement-breakpoint
CREATE INDEX "banned_media_phash_band0_idx" ON "banned_media" USING btree ("phash_band0");--> statement-breakpoint
CREATE INDEX "banned_media_phash_band1_idx" ON "banned_media" USING btree ("phash_band1");--> statement-breakpoint
CREATE INDEX "banned_media_phash_band2_idx" ON "banned_media" USING btree ("phash_band2");--> statement-breakpoint
CREATE INDEX "banned_media_phash_band3_idx" ON "banned_media" USING btree ("phash_band3");--> statement-breakpoint
CREATE INDEX "banned_media_newest_idx" ON "banned_media" USING btree ("created_at","id");