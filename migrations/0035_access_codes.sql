ALTER TABLE `ticket_types` ADD `is_hidden` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `discount_codes` ADD `unlocks_ticket_type_ids` text;