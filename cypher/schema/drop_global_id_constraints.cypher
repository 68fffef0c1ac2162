// Migration: drop the global `id IS UNIQUE` constraints of schemas before per-space identity (by name; idempotent).
DROP CONSTRAINT episode_id IF EXISTS;
DROP CONSTRAINT episodic_id IF EXISTS;
DROP CONSTRAINT semantic_id IF EXISTS;
DROP CONSTRAINT tag_id IF EXISTS;
DROP CONSTRAINT subgoal_id IF EXISTS;
DROP CONSTRAINT procedural_id IF EXISTS;
DROP CONSTRAINT audit_record_id IF EXISTS;
