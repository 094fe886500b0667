ALTER TABLE "uploads" ADD COLUMN "phash_band0" text GENERATED ALWAYS AS (substr(phash, 1, 4)) STORED;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "phash_band1" text GENERATED ALWAYS AS (substr(phash, 5, 4)) STORED;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "phash_band2" text GENERATED ALWAYS AS (substr(phash, 9, 4)) STORED;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "phash_band3" text GENERATED ALWAYS AS (substr(phash, 13, 4)) STORED;--> statement-breakpoint
CREATE INDEX "uploads_phash_band0_idx" ON "uploads" USING btree ("phash_band0");--> statement-breakpoint
CREATE INDEX "uploads_phash_band1_idx" ON "uploads" USING btree ("phash_band1");--> statement-breakpoint
CREATE INDEX "uploads_phash_band2_idx" ON "uploads" USING btree ("phash_band2");--> statement-breakpoint
CREATE INDEX "uploads_phash_band3_idx" ON "uploads" USING btree ("phash_band3");