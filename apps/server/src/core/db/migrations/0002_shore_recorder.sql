CREATE TABLE "record_configs" (
	"id" text PRIMARY KEY NOT NULL,
	"camera_id" text NOT NULL,
	"mode" text NOT NULL,
	"schedule" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recording_segments" (
	"id" text PRIMARY KEY NOT NULL,
	"recording_id" text NOT NULL,
	"seq" integer NOT NULL,
	"start_ms" bigint NOT NULL,
	"end_ms" bigint NOT NULL,
	"bytes" bigint NOT NULL,
	"file" text NOT NULL,
	"mime" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recordings" (
	"id" text PRIMARY KEY NOT NULL,
	"camera_id" text NOT NULL,
	"ship_id" text NOT NULL,
	"record_config_id" text NOT NULL,
	"template_id" integer NOT NULL,
	"start_ms" bigint NOT NULL,
	"end_ms" bigint NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"segments" integer DEFAULT 0 NOT NULL,
	"open" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "record_configs" ADD CONSTRAINT "record_configs_camera_id_cameras_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."cameras"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_segments" ADD CONSTRAINT "recording_segments_recording_id_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_camera_id_cameras_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."cameras"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_ship_id_ships_id_fk" FOREIGN KEY ("ship_id") REFERENCES "public"."ships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_configs_camera_idx" ON "record_configs" USING btree ("camera_id");--> statement-breakpoint
CREATE INDEX "recording_segments_recording_idx" ON "recording_segments" USING btree ("recording_id","start_ms");--> statement-breakpoint
CREATE INDEX "recording_segments_start_idx" ON "recording_segments" USING btree ("start_ms");--> statement-breakpoint
CREATE INDEX "recordings_camera_start_idx" ON "recordings" USING btree ("camera_id","start_ms");--> statement-breakpoint
CREATE INDEX "recordings_ship_idx" ON "recordings" USING btree ("ship_id");