CREATE TABLE "camera_stills" (
	"camera_id" text PRIMARY KEY NOT NULL,
	"picture_id" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"state" text NOT NULL,
	"bytes" integer,
	"code" text,
	"message" text
);
--> statement-breakpoint
ALTER TABLE "camera_stills" ADD CONSTRAINT "camera_stills_camera_id_cameras_id_fk" FOREIGN KEY ("camera_id") REFERENCES "public"."cameras"("id") ON DELETE cascade ON UPDATE no action;