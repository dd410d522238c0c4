CREATE TABLE "recording_gap_facts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ship_id" text NOT NULL,
	"camera_id" text DEFAULT '' NOT NULL,
	"start_ms" bigint NOT NULL,
	"end_ms" bigint
);
--> statement-breakpoint
CREATE INDEX "recording_gap_facts_ship_idx" ON "recording_gap_facts" USING btree ("ship_id","kind","start_ms");