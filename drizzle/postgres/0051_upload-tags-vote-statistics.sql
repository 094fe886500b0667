-- How many links have no votes (upload_upvotes + upload_downvote_count = 0, the
-- condition of upload_tags_tag_unvoted_idx and of every ranked page's unvoted range),
-- which the planner cannot know from the columns' own statistics: without it, it took a
-- range of a tag's unvoted links for one row and joined a pair's two ranges row by row
-- (docs/database.md, "Unvoted links").
CREATE STATISTICS IF NOT EXISTS upload_tags_votes_stats ON (upload_upvotes + upload_downvote_count) FROM upload_tags;
--> statement-breakpoint
ANALYZE upload_tags;
