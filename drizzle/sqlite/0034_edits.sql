CREATE TABLE `upload_revisions` (
	`upload_id` text NOT NULL,
	`revision` integer NOT NULL,
	`actor_id` text,
	`changes` text NOT NULL,
	`reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`upload_id`, `revision`),
	FOREIGN KEY (`upload_id`) REFERENCES `uploads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `upload_revisions_actor_idx` ON `upload_revisions` (`actor_id`);--> statement-breakpoint
ALTER TABLE `uploads` ADD `edited_at` text;--> statement-breakpoint
ALTER TABLE `uploads` ADD `revision` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `locked` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
INSERT INTO upload_revisions (upload_id, revision, actor_id, changes, reason, created_at)
SELECT u.id, 1, u.user_id, json_object('description', json_object('from', NULL, 'to', u.description),
    'tagsAdded', (SELECT json_group_array(slug) FROM (SELECT t.slug FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id
      WHERE ut.upload_id = u.id ORDER BY ut.position)),
    'tagsRemoved', json_array()), NULL, u.created_at
FROM uploads u WHERE u.upload_type <> 'link'
UNION ALL
SELECT u.id, 1, u.user_id, json_object('description', json_object('from', NULL, 'to', u.description),
    'externalUrl', json_object('from', NULL, 'to', u.external_url),
    'tagsAdded', (SELECT json_group_array(slug) FROM (SELECT t.slug FROM upload_tags ut JOIN tags t ON t.id = ut.tag_id
      WHERE ut.upload_id = u.id ORDER BY ut.position)),
    'tagsRemoved', json_array()), NULL, u.created_at
FROM uploads u WHERE u.upload_type = 'link';
