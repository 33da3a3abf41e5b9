// The texts of the friends' and clubs' scripts (clubs.js, club.js, follow.js, the daily page's
// friends tab): added to i18n.js's. Each is pgettext(key, English), its German in djangojs.po.
import { addStrings } from "./i18n.js";

const pgettext = globalThis.django?.pgettext ?? ((context, text) => text);

addStrings({
  "club.invite.text": pgettext("club.invite.text", "Join my club “{name}” on Yukon Solitaire: the daily deal, one board for us."),
  "clubs.members.one": pgettext("clubs.members.one", "1 member"),
  "clubs.members.other": pgettext("clubs.members.other", "{n} members"),
  "clubs.owner": pgettext("clubs.owner", "yours"),
  "club.sub": pgettext("club.sub", "Owner: {owner} · {members}"),
  "club.notfound": pgettext("club.notfound", "There is no such club, or you are not a member of it."),
  "club.login": pgettext("club.login", "Log in to see your clubs."),
  "club.invite.help": pgettext("club.invite.help", "Anyone signed in who opens this link joins the club. It works until {date}; revoking stops every link given out so far."),
  "club.invite.copied": pgettext("club.invite.copied", "The link is copied: paste it into your chat."),
  "club.owner.mark": pgettext("club.owner.mark", "owner"),
  "club.remove": pgettext("club.remove", "Remove"),
  "club.remove.label": pgettext("club.remove.label", "Remove {name} from the club"),
  "club.remove.confirm": pgettext("club.remove.confirm", "Remove {name} from the club? No link lets them in again until you let them."),
  "club.removed.lift": pgettext("club.removed.lift", "Let in again"),
  "club.removed.lift.label": pgettext("club.removed.lift.label", "Let {name} join again with a link"),
  "club.handover": pgettext("club.handover", "Make owner"),
  "club.handover.label": pgettext("club.handover.label", "Make owner: {name}"),
  "club.handover.confirm": pgettext("club.handover.confirm", "Hand the club over to {name}? You stay a member."),
  "club.delete.confirm": pgettext("club.delete.confirm", "Delete the club “{name}” with its boards for all its members?"),
  "club.leave.confirm": pgettext("club.leave.confirm", "Leave the club “{name}”?"),
  "club.joined": pgettext("club.joined", "You joined “{name}”."),
  "club.place.about": pgettext("club.place.about", "≈ {rank}"),
  "daily.friends.none": pgettext("daily.friends.none", "You follow nobody yet: the people you follow and you are ranked here."),
  "daily.friends.empty": pgettext("daily.friends.empty", "Nobody you follow has a counted result today yet."),
  "follow.follow": pgettext("follow.follow", "Follow"),
  "follow.unfollow": pgettext("follow.unfollow", "Following ✓"),
  "follow.unfollow.label": pgettext("follow.unfollow.label", "Stop following {name}"),
  "follow.followers.one": pgettext("follow.followers.one", "1 follower"),
  "follow.followers.other": pgettext("follow.followers.other", "{n} followers"),
  "follow.login": pgettext("follow.login", "Log in to follow players"),
});
