CREATE TABLE "event_camera_settings" (
	"camera_id" text PRIMARY KEY NOT NULL,
	"ship_id" text NOT NULL,
	"settings" jsonb,
	"updated_by" text,
	"updated_at" timestamp with time zone,
	"status" jsonb,
	"status_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "event_org_settings" (
	"org_id" text PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"ship_id" text NOT NULL,
	"camera_id" text NOT NULL,
	"start_ms" bigint NOT NULL,
	"end_ms" bigint NOT NULL,
	"classes" jsonb NOT NULL,
	"class_names" text[] NOT NULL,
	"zone" text,
	"picture_bytes" integer NOT NULL,
	"picture_width" integer NOT NULL,
	"picture_height" integer NOT NULL,
	"picture_sha256" text NOT NULL,
	"picture_file" text NOT NULL,
	"recording_from" bigint NOT NULL,
	"recording_to" bigint NOT NULL,
	"acknowledged_by" text,
	"acknowledged_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_org_settings" ADD CONSTRAINT "event_org_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_org_start_idx" ON "events" USING btree ("org_id","start_ms");--> statement-breakpoint
CREATE INDEX "events_ship_start_idx" ON "events" USING btree ("ship_id","start_ms");--> statement-breakpoint
CREATE INDEX "events_camera_start_idx" ON "events" USING btree ("camera_id","start_ms");--> statement-breakpoint
CREATE INDEX "events_class_names_idx" ON "events" USING gin ("class_names");--> statement-breakpoint
CREATE INDEX "events_ship_zone_idx" ON "events" USING btree ("ship_id","zone");--> statement-breakpoint
CREATE INDEX "events_ship_acknowledged_idx" ON "events" USING btree ("ship_id","acknowledged_at");