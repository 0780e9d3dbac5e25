// Webhooks: your bot endpoint (every seat you hold is played by POSTing its decisions to it)
// and event webhook subscriptions with their delivery log. Verify what the server sends with a
// Standard Webhooks library and the secret these calls show once.
import type {
  BotAttempts, BotEndpointOut, BotEndpointSecret, DeliveryLog, Redelivery, SubscriptionIn,
  SubscriptionList, SubscriptionOut, SubscriptionSecret,
} from "../models.js";
import { Area } from "./base.js";

const SUBS = "/v1/webhooks/subscriptions";
const sub = (id: string, rest = ""): string => `${SUBS}/${encodeURIComponent(id)}${rest}`;

export class Webhooks extends Area {
  registerBot(url: string): Promise<BotEndpointSecret> {
    return this.session.run({ method: "POST", path: "/v1/webhooks/bot", body: { url } });
  }

  bot(): Promise<BotEndpointOut> {
    return this.session.run({ method: "GET", path: "/v1/webhooks/bot" });
  }

  async deleteBot(): Promise<void> {
    await this.session.run({ method: "DELETE", path: "/v1/webhooks/bot", ok: [204], read: "none" });
  }

  rotateBot(): Promise<BotEndpointSecret> {
    return this.session.run({ method: "POST", path: "/v1/webhooks/bot/rotate", ok: [200] });
  }

  botAttempts(options: { gameId?: string; before?: number; limit?: number } = {}): Promise<BotAttempts> {
    return this.session.run({
      method: "GET", path: "/v1/webhooks/bot/attempts",
      params: { game_id: options.gameId, before: options.before, limit: options.limit ?? 50 },
    });
  }

  subscribe(url: string, eventTypes: SubscriptionIn["event_types"]): Promise<SubscriptionSecret> {
    return this.session.run({ method: "POST", path: SUBS, body: { url, event_types: eventTypes } });
  }

  subscriptions(): Promise<SubscriptionList> {
    return this.session.run({ method: "GET", path: SUBS });
  }

  subscription(subscriptionId: string): Promise<SubscriptionOut> {
    return this.session.run({ method: "GET", path: sub(subscriptionId) });
  }

  async unsubscribe(subscriptionId: string): Promise<void> {
    await this.session.run({ method: "DELETE", path: sub(subscriptionId), ok: [204], read: "none" });
  }

  rotate(subscriptionId: string): Promise<SubscriptionSecret> {
    return this.session.run({ method: "POST", path: sub(subscriptionId, "/rotate") });
  }

  enable(subscriptionId: string): Promise<SubscriptionOut> {
    return this.session.run({ method: "POST", path: sub(subscriptionId, "/enable") });
  }

  deliveries(subscriptionId: string, options: { gameId?: string; limit?: number } = {}): Promise<DeliveryLog> {
    return this.session.run({
      method: "GET", path: sub(subscriptionId, "/deliveries"),
      params: { game_id: options.gameId, limit: options.limit ?? 50 },
    });
  }

  redeliver(subscriptionId: string, messageId: string): Promise<Redelivery> {
    return this.session.run({
      method: "POST", path: sub(subscriptionId, `/deliveries/${encodeURIComponent(messageId)}/redeliver`), ok: [202],
    });
  }
}
