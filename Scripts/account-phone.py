#!/usr/bin/env python3
"""The phone in the account tests: gPodder's own client library, mygpoclient, doing what a podcast
app does against a gpodder.net-API server. Runs in the venv `make account-phone` makes; the tests
call it once per step and read its JSON answer on stdout.

    account-phone.py SERVER USER DEVICE COMMAND [ARGS...]     (password in ACCOUNT_PHONE_PASSWORD)

    subscribe URL...                       add feeds to DEVICE's subscriptions
    unsubscribe URL...                     remove them
    pull-subscriptions SINCE               {"add": [...], "remove": [...], "timestamp": N}
    play FEED EPISODE POSITION TOTAL       upload a play action (started 0, now)
    download FEED EPISODE                  upload a download action (now)
    episode-actions SINCE                  {"actions": [...], "timestamp": N}, as mygpoclient's
                                           download_episode_actions reads them (no guid)
    download-actions SINCE                 {"actions": [...], "timestamp": N}, every field the
                                           server sent (mygpoclient's EpisodeAction drops the guid)

The password travels in the environment so that it never shows in a process listing.
"""
import datetime
import json
import os
import sys

from mygpoclient import api


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    server, user, device, command, args = argv[1], argv[2], argv[3], argv[4], argv[5:]
    client = api.MygPodderClient(user, os.environ["ACCOUNT_PHONE_PASSWORD"], root_url=server)
    if command == "subscribe":
        result = client.update_subscriptions(device, args, [])
        answer = {"timestamp": result.since, "update_urls": result.update_urls}
    elif command == "unsubscribe":
        result = client.update_subscriptions(device, [], args)
        answer = {"timestamp": result.since, "update_urls": result.update_urls}
    elif command == "pull-subscriptions":
        changes = client.pull_subscriptions(device, int(args[0]))
        answer = {"add": changes.add, "remove": changes.remove, "timestamp": changes.since}
    elif command == "play":
        feed, episode, position, total = args[0], args[1], int(args[2]), int(args[3])
        action = api.EpisodeAction(feed, episode, "play", device=device, timestamp=now(),
                                   started=0, position=position, total=total)
        answer = {"timestamp": client.upload_episode_actions([action])}
    elif command == "download":
        action = api.EpisodeAction(args[0], args[1], "download", device=device, timestamp=now())
        answer = {"timestamp": client.upload_episode_actions([action])}
    elif command == "episode-actions":
        changes = client.download_episode_actions(int(args[0]))
        fields = ("podcast", "episode", "action", "device", "timestamp", "started", "position",
                  "total")
        answer = {"actions": [{name: getattr(action, name) for name in fields}
                              for action in changes.actions],
                  "timestamp": changes.since}
    elif command == "download-actions":
        # The same request download_episode_actions makes, read through mygpoclient's own JSON
        # client so that fields its EpisodeAction class has no place for (guid) are kept.
        uri = client._locator.download_episode_actions_uri(int(args[0]))
        answer = client._client.GET(uri)
    else:
        sys.exit("unknown command: " + command)
    json.dump(answer, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
