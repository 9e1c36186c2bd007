ALTER TABLE `bookings` ADD `admission_tax_rate_percent` real;--> statement-breakpoint
ALTER TABLE `bookings` ADD `admission_exemption_applies` integer;--> statement-breakpoint
ALTER TABLE `holds` ADD `admission_tax_rate_percent` real;--> statement-breakpoint
ALTER TABLE `holds` ADD `admission_exemption_applies` integer;