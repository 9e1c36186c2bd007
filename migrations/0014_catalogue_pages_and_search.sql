CREATE TABLE `event_search_keys` (
	`event_id` text PRIMARY KEY NOT NULL,
	`doc_id` integer NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_search_keys_doc_id_unique` ON `event_search_keys` (`doc_id`);--> statement-breakpoint
ALTER TABLE `events` ADD `lowest_price_paise` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `last_ends_at` text;--> statement-breakpoint
CREATE INDEX `events_list_all_idx` ON `events` (`status`,`start_time`,`name`,`id`,`last_ends_at`);--> statement-breakpoint
CREATE INDEX `events_list_city_idx` ON `events` (`status`,`city`,`start_time`,`name`,`id`,`last_ends_at`);--> statement-breakpoint
CREATE INDEX `events_list_category_idx` ON `events` (`status`,`category`,`start_time`,`name`,`id`,`last_ends_at`);--> statement-breakpoint
CREATE INDEX `events_list_city_category_idx` ON `events` (`status`,`city`,`category`,`start_time`,`name`,`id`,`last_ends_at`);--> statement-breakpoint
-- Backfill the maintained list data (services/catalog/refresh-event-listing.ts keeps it from here on).
UPDATE `events` SET
  `lowest_price_paise` = (
    SELECT min(tt.`price_paise`) FROM `ticket_types` tt
    JOIN `slots` s ON s.`id` = tt.`slot_id`
    JOIN `event_dates` d ON d.`id` = s.`event_date_id`
    WHERE d.`event_id` = `events`.`id`
  ),
  `last_ends_at` = max(
    coalesce(`end_time`, `start_time`),
    coalesce((
      SELECT max(s.`end_time`) FROM `slots` s
      JOIN `event_dates` d ON d.`id` = s.`event_date_id`
      WHERE d.`event_id` = `events`.`id`
    ), '')
  );--> statement-breakpoint
-- Full-text search over what a buyer types (ADR 0021). The trigram tokenizer matches any part of a word
-- of three or more characters, in any case; synonyms and city aliases are expanded at query time.
CREATE VIRTUAL TABLE `event_search` USING fts5(
  `name`, `artists`, `venue`, `city`, `category`,
  tokenize = 'trigram remove_diacritics 1'
);--> statement-breakpoint
-- Ranking: bm25 with the name and the artists weighing most, then venue, city and category.
INSERT INTO `event_search` (`event_search`, `rank`) VALUES ('rank', 'bm25(10.0, 8.0, 3.0, 2.0, 2.0)');--> statement-breakpoint
INSERT INTO `event_search_keys` (`event_id`, `doc_id`)
  SELECT `id`, `rowid` FROM `events` WHERE `status` = 'published';--> statement-breakpoint
INSERT INTO `event_search` (`rowid`, `name`, `artists`, `venue`, `city`, `category`)
  SELECT k.`doc_id`, e.`name`,
    coalesce((SELECT group_concat(a.`name`, ' · ') FROM `artists` a WHERE a.`event_id` = e.`id`), ''),
    e.`event_location_text`, e.`city`, e.`category`
  FROM `events` e JOIN `event_search_keys` k ON k.`event_id` = e.`id`;--> statement-breakpoint
-- A counter that refresh-event-listing.ts moves with every change to an event: the public micro-cache
-- keys catalogue lists and searches by it, so a hold or a booking (which never changes an event's
-- listing) does not throw those answers away. (Not a trigger on `events`: a trigger makes SQLite plan
-- the foreign-key checks of every child table into each insert, scans of holds and bookings included.)
CREATE TABLE `catalog_version` (
  `id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
  `version` integer NOT NULL
);--> statement-breakpoint
INSERT INTO `catalog_version` (`id`, `version`) VALUES (1, 1);
--> statement-breakpoint
-- A status change (publish, unpublish, cancel) by any code moves it too, even one that does not call
-- refresh-event-listing.ts: an event taken off sale must leave cached lists at once. (An UPDATE OF
-- trigger adds nothing to the plans of other statements on `events`.)
CREATE TRIGGER `events_status_moves_catalog_version` AFTER UPDATE OF `status` ON `events`
BEGIN UPDATE `catalog_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
