ALTER TABLE "definition_groups" ADD COLUMN "display_name_en" text;--> statement-breakpoint
ALTER TABLE "definition_models" ADD COLUMN "display_name_en" text;--> statement-breakpoint
-- The demo's definition names were English only: Chinese names in, English beside them.
UPDATE "definition_models" SET "display_name_en" = "display_name", "display_name" = '流畅 320×180' WHERE "display_name" = 'Smooth 320×180' AND "display_name_en" IS NULL;--> statement-breakpoint
UPDATE "definition_models" SET "display_name_en" = "display_name", "display_name" = '标清 640×360' WHERE "display_name" = 'Standard 640×360' AND "display_name_en" IS NULL;--> statement-breakpoint
UPDATE "definition_models" SET "display_name_en" = "display_name", "display_name" = '高清 1280×720' WHERE "display_name" = 'HD 1280×720' AND "display_name_en" IS NULL;--> statement-breakpoint
UPDATE "definition_groups" SET "display_name_en" = "display_name", "display_name" = '标准' WHERE "display_name" = 'Standard' AND "display_name_en" IS NULL;--> statement-breakpoint
UPDATE "definition_groups" SET "display_name_en" = "display_name", "display_name" = '旧版（无模板）' WHERE "display_name" = 'Legacy (no models)' AND "display_name_en" IS NULL;
