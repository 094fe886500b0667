-- A user's list looks the account up in the statement of its page, so the planner
-- plans the page for an account of average size (about 20 uploads on the bench's data),
-- reads and sorts every upload of a large account for any page past the first, and for
-- such a page keeps no plan (docs/database.md, "Accounts' sizes"). Planned as though
-- 100 accounts held every upload, a page walks the index of its order, which costs a
-- small account no more; a join of uploads and users still reads the users' own count.
ALTER TABLE "uploads" ALTER COLUMN "user_id" SET (n_distinct = 100);
--> statement-breakpoint
ANALYZE "uploads";
