CREATE TABLE `tag_pairs` (
	`first_tag_id` text NOT NULL,
	`second_tag_id` text NOT NULL,
	`public_uploads` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`first_tag_id`, `second_tag_id`)
);
