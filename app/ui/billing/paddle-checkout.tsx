// Paddle.js overlay checkout (when Paddle keys are set). Initialised once with the client token and,
// when known, the customer id; the user id rides in customData so webhooks find the user without
// matching e-mails. Failures are logged with the seed's messages and the page carries on.
import { Banner, Button } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import type { Paddle } from "@paddle/paddle-js";

export interface PaddleCheckoutProps {
  clientToken: string;
  environment: "sandbox" | "production";
  customerId: string | null;
  userId: string;
  email: string;
  priceId?: string;
  transactionId?: string;
  successUrl: string;
  label: string;
}

export function PaddleCheckoutButton(props: PaddleCheckoutProps) {
  const paddle = useRef<Paddle | null>(null);
  const [failed, setFailed] = useState(false);
  const { clientToken, environment, customerId } = props;

  useEffect(() => {
    let cancelled = false;
    import("@paddle/paddle-js")
      .then(({ initializePaddle }) =>
        initializePaddle({
          environment,
          token: clientToken,
          ...(customerId ? { pwCustomer: { id: customerId } } : {}),
        }),
      )
      .then((instance) => {
        if (cancelled) return;
        if (!instance) {
          console.error("Failed to load Paddle.js");
          setFailed(true);
          return;
        }
        paddle.current = instance;
      })
      .catch((error) => {
        console.error("Error Loading Paddle", error);
        setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [clientToken, environment, customerId]);

  function open() {
    try {
      if (!paddle.current) throw new Error("Paddle is not loaded");
      paddle.current.Checkout.open({
        ...(props.transactionId
          ? { transactionId: props.transactionId }
          : { items: [{ priceId: props.priceId!, quantity: 1 }] }),
        ...(customerId ? { customer: { id: customerId } } : { customer: { email: props.email } }),
        customData: { userId: props.userId },
        settings: { displayMode: "overlay", successUrl: new URL(props.successUrl, window.location.href).toString() },
      });
    } catch (error) {
      console.error("Paddle Initialization failed. Please check the inputs", error);
      setFailed(true);
    }
  }

  return (
    <>
      {failed ? (
        <Banner tone="warning">
          <p>The payment window could not be opened. Check your connection or ad blocker, then reload the page.</p>
        </Banner>
      ) : null}
      <Button variant="primary" size="large" fullWidth onClick={open}>
        {props.label}
      </Button>
    </>
  );
}
