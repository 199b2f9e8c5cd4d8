// `npm run operator -- EMAIL [--revoke]`: gives a user the operator flag (the feedback and bug inbox at
// /dashboard/operator), or takes it away with --revoke. Runs against DATABASE_URL like the app.
import { db } from "~/db.server";
import { setOperator } from "~/services/feedback.server";
import { runCli } from "./lib/cli-args";

const USAGE = "Usage: npm run operator -- EMAIL [--revoke]";

async function main(argv: string[]): Promise<number> {
  const revoke = argv.includes("--revoke");
  const unknown = argv.filter((a) => a.startsWith("-") && a !== "--revoke");
  const emails = argv.filter((a) => !a.startsWith("-"));
  if (unknown.length > 0 || emails.length !== 1) {
    console.error(unknown.length > 0 ? `Unknown option ${unknown.join(", ")}. ${USAGE}` : USAGE);
    return 2;
  }
  const email = emails[0].trim().toLowerCase();
  const result = await setOperator(db, email, !revoke);
  if (!result) {
    console.error(`No user has the e-mail ${email}. They must sign up first.`);
    return 1;
  }
  console.log(
    result.isOperator
      ? `${result.email} is now an operator: /dashboard/operator shows bug reports and feedback.`
      : `${result.email} is no longer an operator.`,
  );
  return 0;
}

runCli(() => main(process.argv.slice(2)), { close: () => db.$disconnect() });
