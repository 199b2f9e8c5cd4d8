-- AI ads (docs/decisions/067): the voice an ad's voice-over is read in, one of the speech adapter's voices;
-- null reads in the server's default voice (AI_SPEECH_VOICE).
ALTER TABLE "AiAd" ADD COLUMN "voice" TEXT;
