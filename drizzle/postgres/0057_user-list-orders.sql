DROP INDEX "uploads_user_name_lower_idx";--> statement-breakpoint
DROP INDEX "uploads_user_date_idx";--> statement-breakpoint
DROP INDEX "uploads_user_votes_idx";--> statement-breakpoint
DROP INDEX "uploads_user_favourites_idx";--> statement-breakpoint
CREATE INDEX "uploads_user_name_idx" ON "uploads" USING btree ("user_id","is_private",lower("original_name") COLLATE "C","created_at" desc,"id" desc);--> statement-breakpoint
CREATE INDEX "uploads_user_date_idx" ON "uploads" USING btree ("user_id","is_private","created_at" desc,"id" desc);--> statement-breakpoint
CREATE INDEX "uploads_user_votes_idx" ON "uploads" USING btree ("user_id","is_private","upvotes" desc,"created_at" desc,"id" desc);--> statement-breakpoint
CREATE INDEX "uploads_user_favourites_idx" ON "uploads" USING btree ("user_id","is_private","favourites" desc,"created_at" desc,"id" desc);