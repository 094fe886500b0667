DROP INDEX "report_groups_queue_idx";--> statement-breakpoint
DROP INDEX "reports_open_reporter_unique";--> statement-breakpoint
DROP INDEX "reports_open_ip_unique";--> statement-breakpoint
DROP INDEX "reports_open_fingerprint_unique";--> statement-breakpoint
DROP INDEX "reports_status_upload_idx";--> statement-breakpoint
ALTER TABLE "report_groups" DROP CONSTRAINT "report_groups_upload_id_status_pk";--> statement-breakpoint
ALTER TABLE "report_groups" ADD COLUMN "comment_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_groups" ADD CONSTRAINT "report_groups_upload_id_comment_id_status_pk" PRIMARY KEY("upload_id","comment_id","status");--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "comment_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "report_groups_queue_idx" ON "report_groups" USING btree ("status","reason_rank","first_at","upload_id","comment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_reporter_unique" ON "reports" USING btree ("upload_id","comment_id","reporter_id") WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_ip_unique" ON "reports" USING btree ("upload_id","comment_id","ip_hash") WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_fingerprint_unique" ON "reports" USING btree ("upload_id","comment_id","fingerprint") WHERE "reports"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "reports_status_upload_idx" ON "reports" USING btree ("status","upload_id","comment_id");--> statement-breakpoint
-- report_groups is keyed by target: an upload's own reports have comment_id '', a comment's
-- reports carry its id (and its upload's). The function is that of the report_groups
-- migration with comment_id in the key (the same locks, in the same order).
CREATE OR REPLACE FUNCTION "reports_group"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "report_groups" ("upload_id", "comment_id", "status", "reason_rank", "report_count", "first_at")
      VALUES (NEW."upload_id", NEW."comment_id", NEW."status", CASE NEW."reason" WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END, 1, NEW."created_at")
      ON CONFLICT ("upload_id", "comment_id", "status") DO UPDATE SET "reason_rank" = least("report_groups"."reason_rank", excluded."reason_rank"),
        "report_count" = "report_groups"."report_count" + 1, "first_at" = least("report_groups"."first_at", excluded."first_at");
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM 1 FROM "report_groups" WHERE "upload_id" = OLD."upload_id" AND "comment_id" = OLD."comment_id" AND "status" = OLD."status" FOR UPDATE;
    IF FOUND THEN
      DELETE FROM "report_groups" WHERE "upload_id" = OLD."upload_id" AND "comment_id" = OLD."comment_id" AND "status" = OLD."status"
        AND NOT EXISTS (SELECT 1 FROM "reports" r WHERE r."upload_id" = OLD."upload_id" AND r."comment_id" = OLD."comment_id" AND r."status" = OLD."status");
      UPDATE "report_groups" SET ("reason_rank", "report_count", "first_at") = (SELECT min(CASE r."reason" WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2 WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END), count(*), min(r."created_at")
          FROM "reports" r WHERE r."upload_id" = OLD."upload_id" AND r."comment_id" = OLD."comment_id" AND r."status" = OLD."status")
        WHERE "upload_id" = OLD."upload_id" AND "comment_id" = OLD."comment_id" AND "status" = OLD."status";
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "reports_group_move" ON "reports";
--> statement-breakpoint
CREATE TRIGGER "reports_group_move" AFTER UPDATE OF "upload_id", "comment_id", "status", "reason", "created_at" ON "reports"
  FOR EACH ROW WHEN (OLD."upload_id" IS DISTINCT FROM NEW."upload_id" OR OLD."comment_id" IS DISTINCT FROM NEW."comment_id" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."reason" IS DISTINCT FROM NEW."reason" OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION "reports_group"();
