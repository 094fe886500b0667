ALTER TABLE "uploads" ADD COLUMN "source_sha256" text;--> statement-breakpoint
CREATE INDEX "uploads_source_sha256_idx" ON "uploads" USING btree ("source_sha256");