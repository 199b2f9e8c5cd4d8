-- The research assistant's threads (seed threads; docs/decisions/031): one row per thread of a user, its
-- messages in order. An assistant message keeps the product query it ran (the grid's URL parameters),
-- the objectIDs of the products it listed and where the query came from ("AI model" or "built-in
-- parser"). Written by hand like 006.

-- CreateTable
CREATE TABLE "Thread" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Thread_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ThreadMessage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "threadId" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "query" TEXT,
    "productIds" TEXT NOT NULL DEFAULT '[]',
    "source" TEXT,
    "notes" TEXT NOT NULL DEFAULT '[]',
    "total" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ThreadMessage_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Thread_userId_updatedAt_idx" ON "Thread"("userId", "updatedAt");

-- CreateIndex
CREATE INDEX "ThreadMessage_threadId_id_idx" ON "ThreadMessage"("threadId", "id");

-- CreateIndex
CREATE INDEX "ThreadMessage_userId_createdAt_idx" ON "ThreadMessage"("userId", "createdAt");
