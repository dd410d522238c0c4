CREATE TABLE "snapshot_shots" (
	"task_id" text NOT NULL,
	"camera_id" text NOT NULL,
	"idx" integer NOT NULL,
	"outcome" text NOT NULL,
	"picture_id" text,
	"reason" text,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "snapshot_shots_task_id_camera_id_idx_pk" PRIMARY KEY("task_id","camera_id","idx")
);
--> statement-breakpoint
CREATE TABLE "snapshot_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"ship_id" text NOT NULL,
	"owner" text NOT NULL,
	"channel_ids" jsonb NOT NULL,
	"camera_ids" jsonb NOT NULL,
	"every_ms" bigint NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"template_id" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"handed_over_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"dropped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "snapshot_tasks_ship_idx" ON "snapshot_tasks" USING btree ("ship_id");--> statement-breakpoint
CREATE INDEX "snapshot_tasks_org_idx" ON "snapshot_tasks" USING btree ("org_id");