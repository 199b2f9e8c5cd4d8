-- AI ads (docs/decisions/062): up to three hooks the seller may pick for the first scene, and the video's shape.
ALTER TABLE "AiAd" ADD COLUMN "hookOptions" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "AiAd" ADD COLUMN "format" TEXT NOT NULL DEFAULT '9:16';
-- Sound: a voice-over from the AI speech endpoint, and a music bed from the operator's folder.
ALTER TABLE "AiAd" ADD COLUMN "voiceOver" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "AiAd" ADD COLUMN "musicTrack" TEXT;
