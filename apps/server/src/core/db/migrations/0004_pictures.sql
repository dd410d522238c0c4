CREATE TABLE "pictures" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"ship_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"camera_id" text NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"origin" text NOT NULL,
	"task_id" text,
	"mime" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sha256" text NOT NULL,
	"file" text NOT NULL,
	"thumb_file" text NOT NULL,
	"thumb_bytes" integer NOT NULL,
	"stored_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ship_pictures" (
	"id" text PRIMARY KEY NOT NULL,
	"ship_id" text NOT NULL,
	"camera_id" text NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"origin" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"thumb_file" text,
	"listed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pictures_org_time_idx" ON "pictures" USING btree ("org_id","taken_at");--> statement-breakpoint
CREATE INDEX "pictures_camera_time_idx" ON "pictures" USING btree ("camera_id","taken_at");--> statement-breakpoint
CREATE INDEX "ship_pictures_camera_time_idx" ON "ship_pictures" USING btree ("camera_id","taken_at");