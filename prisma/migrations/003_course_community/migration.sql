-- CreateTable
CREATE TABLE "CourseModule" (
    "number" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "summary" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "CourseLesson" (
    "number" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "moduleNumber" INTEGER NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "videoUrl" TEXT,
    "tryItUrl" TEXT,
    "tryItLabel" TEXT,
    CONSTRAINT "CourseLesson_moduleNumber_fkey" FOREIGN KEY ("moduleNumber") REFERENCES "CourseModule" ("number") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LessonCompletion" (
    "userId" TEXT NOT NULL,
    "lessonNumber" INTEGER NOT NULL,
    "completedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("userId", "lessonNumber")
);

-- CreateTable
CREATE TABLE "UserCourse" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "progressPercentage" REAL NOT NULL DEFAULT 0,
    "completed" BOOLEAN NOT NULL DEFAULT false,
    "latestModuleName" TEXT,
    "latestModuleNumber" INTEGER,
    "latestLessonName" TEXT,
    "latestLessonNumber" INTEGER,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "DiscordProfile" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "discordId" TEXT,
    "discordUserName" TEXT,
    "discordPopup1" BOOLEAN NOT NULL DEFAULT false,
    "discordPopup2" BOOLEAN NOT NULL DEFAULT false,
    "discordPopup3" BOOLEAN NOT NULL DEFAULT false,
    "discordPopup4" BOOLEAN NOT NULL DEFAULT false,
    "discordPopup5" BOOLEAN NOT NULL DEFAULT false,
    "lastPopupDate" DATETIME,
    "joined" BOOLEAN NOT NULL DEFAULT false,
    "dismissedLast" BOOLEAN NOT NULL DEFAULT false
);

-- CreateTable
CREATE TABLE "Feedback" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT,
    "message" TEXT NOT NULL,
    "rating" INTEGER,
    "pageUrl" TEXT,
    "status" TEXT NOT NULL DEFAULT 'new',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "BugReport" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT,
    "description" TEXT NOT NULL,
    "pageUrl" TEXT,
    "userAgent" TEXT,
    "status" TEXT NOT NULL DEFAULT 'new',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- AlterTable (hand-written: adding a column with a default needs no table rebuild)
ALTER TABLE "User" ADD COLUMN "isOperator" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "CourseLesson_slug_key" ON "CourseLesson"("slug");

-- CreateIndex
CREATE INDEX "CourseLesson_moduleNumber_idx" ON "CourseLesson"("moduleNumber");

-- CreateIndex
CREATE INDEX "Feedback_createdAt_idx" ON "Feedback"("createdAt");

-- CreateIndex
CREATE INDEX "BugReport_createdAt_idx" ON "BugReport"("createdAt");

