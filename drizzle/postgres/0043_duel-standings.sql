-- This or That's standings move out of the upload's row into duel_standings, one narrow
-- row per image. A judgement changed the upload's duel_strength, an indexed column, so
-- PostgreSQL could not update in place (HOT) and added an entry for both rows to every
-- one of the upload's indexes; now it rewrites two small rows with three indexes. The
-- judges' unique indexes keep only the rows that name that judge.
CREATE TABLE "duel_standings" (
	"upload_id" text PRIMARY KEY NOT NULL,
	"in_pool" integer NOT NULL,
	"strength" double precision DEFAULT 1500 NOT NULL,
	"wins" integer DEFAULT 0 NOT NULL,
	"losses" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "duel_standings" ("upload_id", "in_pool", "strength", "wins", "losses")
  SELECT "id", CASE WHEN "is_private" = 0 THEN 1 ELSE 0 END, "duel_strength", "duel_wins", "duel_losses" FROM "uploads" WHERE "upload_type" = 'image';
--> statement-breakpoint
ALTER TABLE "duel_standings" ADD CONSTRAINT "duel_standings_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "duel_standings_pool_idx" ON "duel_standings" USING btree ("strength","upload_id") WHERE "duel_standings"."in_pool" = 1;--> statement-breakpoint
CREATE INDEX "duel_standings_ranked_idx" ON "duel_standings" USING btree ("strength" desc,"upload_id" desc) WHERE "duel_standings"."in_pool" = 1 AND "duel_standings"."wins" + "duel_standings"."losses" >= 5;--> statement-breakpoint
-- duel_standings.in_pool: a kept copy of "the image is public" (server/database/kept-counts.ts).
CREATE FUNCTION "uploads_duel_standing"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "duel_standings" ("upload_id", "in_pool") VALUES (NEW."id", CASE WHEN NEW."is_private" = 0 THEN 1 ELSE 0 END);
  ELSE
    UPDATE "duel_standings" SET "in_pool" = CASE WHEN NEW."is_private" = 0 THEN 1 ELSE 0 END WHERE "upload_id" = NEW."id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "uploads_duel_standing_insert" AFTER INSERT ON "uploads" FOR EACH ROW
  WHEN (NEW."upload_type" = 'image') EXECUTE FUNCTION "uploads_duel_standing"();
--> statement-breakpoint
CREATE TRIGGER "uploads_duel_standing_privacy" AFTER UPDATE OF "is_private" ON "uploads" FOR EACH ROW
  WHEN (OLD."is_private" IS DISTINCT FROM NEW."is_private" AND NEW."upload_type" = 'image') EXECUTE FUNCTION "uploads_duel_standing"();
--> statement-breakpoint
DROP INDEX "uploads_duel_pool_idx";--> statement-breakpoint
DROP INDEX "uploads_duel_ranked_idx";--> statement-breakpoint
DROP INDEX "duel_judgements_user_pair_unique";--> statement-breakpoint
DROP INDEX "duel_judgements_fingerprint_pair_unique";--> statement-breakpoint
DROP INDEX "duel_judgements_ip_pair_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "duel_judgements_user_pair_unique" ON "duel_judgements" USING btree ("user_id","low_id","high_id") WHERE "duel_judgements"."user_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "duel_judgements_fingerprint_pair_unique" ON "duel_judgements" USING btree ("fingerprint","low_id","high_id") WHERE "duel_judgements"."fingerprint" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "duel_judgements_ip_pair_unique" ON "duel_judgements" USING btree ("ip_hash","low_id","high_id") WHERE "duel_judgements"."ip_hash" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" DROP COLUMN "duel_strength";--> statement-breakpoint
ALTER TABLE "uploads" DROP COLUMN "duel_wins";--> statement-breakpoint
ALTER TABLE "uploads" DROP COLUMN "duel_losses";
