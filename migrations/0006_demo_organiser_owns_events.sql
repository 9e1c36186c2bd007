-- Events made before organisers existed (the demo catalogue) get an owner: the demo organiser, an
-- account without a password (it cannot sign in until someone resets it). Nothing happens on a
-- database with no events; the demo seed creates the same account for new databases
-- (src-server/services/roles/demo-accounts.ts).
INSERT INTO `users` (`id`, `name`, `email`, `is_email_verified`, `booking_ids_list`, `is_staff`, `created_at`, `updated_at`)
SELECT 'demo-organiser', 'Jalsa Demo Organiser', 'organiser@demo.jalsa.local', 1, '[]', 0,
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE EXISTS (SELECT 1 FROM `events` WHERE `owner_id` IS NULL)
  AND NOT EXISTS (SELECT 1 FROM `users` WHERE `email` = 'organiser@demo.jalsa.local');
--> statement-breakpoint
INSERT INTO `account_roles` (`user_id`, `role`, `granted_by`, `granted_at`)
SELECT `id`, 'organiser', NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM `users`
WHERE `email` = 'organiser@demo.jalsa.local'
  AND EXISTS (SELECT 1 FROM `events` WHERE `owner_id` IS NULL)
  AND NOT EXISTS (SELECT 1 FROM `account_roles` r WHERE r.`user_id` = `users`.`id`);
--> statement-breakpoint
UPDATE `events` SET `owner_id` = (SELECT `id` FROM `users` WHERE `email` = 'organiser@demo.jalsa.local')
WHERE `owner_id` IS NULL;
