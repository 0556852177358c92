# The page's and the server's texts in English. One message per text a player reads; the
# Russian catalogue (ru.ftl) has the same messages. Notation (a1-h8, c3-d4, e5:c3) is never
# translated.

## The page's frame: header, settings, pages that do not exist

site-name = Bashni
nav-lobby = Lobby
nav-tournaments = Tournaments
nav-new-game = New game
nav-study = Study board
nav-leaderboard = Leaderboard
needs-javascript = This page needs JavaScript.
page-not-found = Page not found
page-not-found-back = Go to the start page

settings = Settings
settings-page-colours = Page colours
settings-scheme-system = As the system
settings-scheme-light = Light
settings-scheme-dark = Dark
settings-board-colours = Board colours
settings-board-wood = Wood
settings-board-green = Green
settings-board-grey = Grey
settings-board-size = Board size
settings-sounds = Sounds
settings-language = Language

## The server's answers to refused requests

error-too-many-requests = too many requests from your address; slow down
error-too-many-open = too many requests in progress from your address; slow down
error-body-too-slow = the request's body came too slowly; send it again
error-not-logged-in = you are not logged in (or your session has ended)
error-wrong-login = the name or the password is wrong
error-name-taken = the name { $name } is taken; choose another
error-name-looks-taken = the name { $name } looks too much like { $taken }, which is taken; choose another
error-wrong-password = the password is wrong; the account was not deleted
error-store-busy = the database is busy; nothing was changed, try again
error-store-full = the server's disk is full; nothing was changed
error-store-stale = the game changed meanwhile; nothing was changed, look at it again
error-store-corrupt = the stored game cannot be read
error-store-failed = the game could not be stored; nothing was changed
error-name-long = name: at most { $most } characters
error-no-seat = your account holds no seat in this game
error-socket-too-many = too many messages; slow down
error-pictures-too-many = you already have { $most } pictures being drawn; wait for them
error-pictures-busy = the server is drawing many pictures just now; try again in a few seconds

# Words of the API that are the same in every language (what only a program sends wrong).
api-words = { $words }
error-too-many-games = too many new games from your address (at most { $most } a minute); wait a little

# The game's refusals. $mover: white or black, the side to move.
round-needs-token = this needs your seat in the game; open the game from the link you were given
round-wrong-token = your seat's key is wrong for this game
round-record-no-play = this game is a record read from PDN; nothing can be played in it
round-record-nothing = nothing can be played in a record
round-game-over = the game is already over
round-not-joined = the second player has not joined yet; send them the invite link
round-not-your-turn = it is { $mover ->
        [white] White's
       *[black] Black's
    } turn
round-move-not-legal = the move { $mv } is not legal here
round-move-unreadable = { $mv } cannot be read as a move (column { $column })
# $why: why the move is not legal; $square: the square it names; $legal: the legal moves, or "none".
round-move-illegal = the move { $mv } is not legal: { $why ->
        [no_tower] the side to move has no tower on { $square }
        [capture] a capture is compulsory
        [no_capture] there is nothing to capture
        [no_crowning] no man is crowned on { $square }
        [no_moves] the side to move has no legal move
       *[no_way] no legal move goes that way
    }; legal moves: { $legal ->
        [none] none
       *[other] { $legal }
    }
round-move-ambiguous = the move { $mv } is ambiguous: it could be { $moves }
round-flagged = { $mover ->
        [white] White
       *[black] Black
    } ran out of time
round-move-time-out = { $mover ->
        [white] White's
       *[black] Black's
    } time for this move ran out
round-ply-limit = the game has reached the server's limit of { $plies } plies; agree a draw or resign
round-abort-not-player = only a player seated in the game may abort it
round-record-no-abort = a record read from PDN cannot be aborted
round-tournament-no-abort = a tournament game cannot be aborted; resign or offer a draw instead
round-abort-too-late = both sides have moved, so the game can no longer be aborted; resign or offer a draw instead
round-record-no-rematch = a record read from PDN has no players for a rematch; start a new game
round-rematch-not-over = a rematch can be offered only once the game is over
round-tournament-no-rematch = a tournament game has no rematch: the tournament pairs the next game
round-rematch-nobody = nobody joined this game, so there is nobody for a rematch; start a new game
round-rematch-started = the rematch has already started: game { $game }
round-rematch-engine = the engine does not ask for rematches
round-rematch-offered = you have already offered a rematch
round-rematch-none-to-accept = there is no rematch offer to accept
round-rematch-own = you cannot accept your own rematch offer; your opponent answers it
round-rematch-none-to-decline = there is no rematch offer to decline
round-draw-none-to-answer = there is no draw offer to answer
round-draw-already-offered = your draw offer is already open
round-claim-not-turn = a draw is claimed by the side to move, on its turn
round-nothing-to-claim = no draw can be claimed in this position
round-draw-offer-too-early = in Russian draughts a draw may be offered only after each side has made { $moves } moves (6.1.8.1)
round-no-draw-offer = the opponent has not offered a draw
round-draw-offer-not-on-move = in Bashni a draw is offered only on your own turn, together with your move (1.13.3)
round-draw-offer-repeated = in Bashni you may offer a draw again only after your opponent has offered one (1.13.3)
round-takeback-none = there is no move to take back
round-takeback-no-engine = there is no engine in this game
round-takeback-not-player = only the player can take back a move
round-takeback-no-own-move = you have made no move to take back
round-takeback-friend = moves cannot be taken back in a game between two people online
round-invite-not-friend = only games with a friend have an invite
round-invite-over = the game is over; nobody can join it
round-invite-full = both seats are already taken
round-invite-wrong = the invite code is wrong for this game
round-engine-no-offer = there is no draw offer for the engine to answer
round-engine-not-turn = it is not the engine's turn
round-play-yourself = your account holds the other seat of this game; you cannot play yourself
# $seen: the plies of the position the player saw; $now: the game's plies.
round-stale = this was made for the position after { $seen } plies, but the game is at ply { $now }; nothing was changed, look at the game again

# Claims when the opponent has left.
claim-friend-only = only a game between two people online can be claimed when a player leaves
claim-correspondence = a correspondence game ends by its deadlines, not by a claim when a player leaves
claim-before-both-moved = both sides must have moved before a claim; until then the game may be aborted
claim-not-player = only a player of the game may claim it
claim-own-turn = it is your turn; only the player waiting for an opponent who left may claim
claim-opponent-online = { $mover ->
        [white] White is
       *[black] Black is
    } online; there is nothing to claim
# $away: seconds offline so far; $after: the seconds after which a claim is allowed; $left: seconds still to wait.
claim-too-early = { $mover ->
        [white] White has
       *[black] Black has
    } been offline for { $away } s; you may claim after { $after } s, in { $left } s

# Chat refusals.
chat-players-room-friend-only = the players' chat is only for games between two people online
chat-watchers-not-in-players-room = only the two players may write in the players' chat; watchers write in the watchers' chat
chat-players-not-in-watchers-room = players may read the watchers' chat but not write in it
chat-mute-not-player = only a player may mute the other player
chat-mute-friend-only = muting is only for games between two people online
chat-name-of-account = { $name } is the name of an account ({ $account }); log in, or write under another name
chat-too-many-lines = at most { $most } chat lines in { $seconds } seconds; wait { $wait } s

# Lobby refusals.
seek-gone = this seek is gone: another player took it, or its owner cancelled it
seek-rated-needs-account = rated games need an account: log in, or play a casual game
seek-name-of-account = { $name } is the name of an account ({ $account }); log in, or play under another name
seek-own = this is your own seek: wait for another player, or cancel it
seek-own-account = this seek is your account's own: you cannot play yourself
seek-cancel-not-owner = only the player who posted a seek can cancel it
seek-too-many = you have { $most } open seeks, the most; cancel one first
seek-too-many-account = your account has { $most } open seeks, the most; cancel one first

# Analysis refusals.
analysis-too-many = you already have { $most } analyses running; wait for them
analysis-busy = the engines are busy with other analyses; try again in a few seconds
analysis-fair-play = this position is in a game between people that is still going on; the engine looks at it once the game has ended

# Tournament refusals. $system: round_robin or swiss.
tournament-started = the tournament has started (or finished); players can join or leave only before the start
tournament-too-few-players = { $system ->
        [swiss] a Swiss tournament
       *[round_robin] a round robin
    } starts with at least { $least } players; it has { $players }
tournament-no-pairing = no first round can be paired
tournament-name-missing = name: give the tournament a name
tournament-name-long = name: at most { $most } characters
tournament-full = the tournament is full ({ $most } players)
tournament-start-not-creator = only the player who made the tournament can start it
tournament-start-changed = players joined or left meanwhile; look at the tournament again and start it
tournament-too-many = you already run { $most } tournaments that have not finished; finish one first

## Records read from PDN (the upload's notes)

pdn-file-too-large = the PDN file is too large (at most { $most } kB)
pdn-file-no-game = the file holds no game
pdn-too-many-games = only the first { $most } games of a file are read
pdn-too-long = the game has { $plies } plies; the server keeps games of at most { $most }
# $variant: russian or bashni; $how: asked (the game chosen on the page), only_fit or both_fit.
pdn-no-game-type = no GameType; read as { $variant ->
        [russian] Russian draughts
       *[bashni] Bashni
    }{ $how ->
        [only_fit] : replays only under its rules
        [both_fit] : replays under both games' rules, and records without GameType are nearly always Russian draughts
       *[asked] {""}, as asked
    }
pdn-move-place = game { $game } ({ $variant ->
        [russian] Russian draughts
       *[bashni] Bashni
    }){ $variation ->
        [yes] , in a variation
       *[no] {""}
    }, move { $number }{ $dots } { $mv } (line { $line }, column { $column })
pdn-stop-unknown-move = the move is not known; replay stops here
pdn-stop-setup = a position is set up after this move; replay stops here
pdn-game-type-missing = game { $game }: no GameType tag: expected GameType "25" (Russian draughts) or "60" (Bashni)
pdn-game-type-unsupported = game { $game }: unsupported GameType "{ $value }": expected 25 (Russian draughts) or 60 (Bashni)
pdn-no-game-fits = game { $game }: no GameType, and the record replays under neither game's rules: { $further }; and { $other }
pdn-warning-encoding = line { $line }, column { $column }: the line is not UTF-8; read as { $encoding }
pdn-warning-text-skipped = line { $line }, column { $column }: text that is not PDN skipped, up to line { $last }
pdn-warning-tag-name = line { $line }, column { $column }: tag name { $written } read as { $read }
pdn-warning-setup-as-fen = line { $line }, column { $column }: a position set up before the first move; read as the FEN tag
pdn-warning-remark = line { $line }, column { $column }: parentheses around words that are no moves; kept as a comment
pdn-warning-capture-quiet = line { $line }, column { $column }: the capture { $written } is written as a quiet move; read as { $read }

# Account refusals. $whose: address (from this address) or name (for this name from this address).
account-name-length = name: { $least } to { $most } characters
account-name-hidden = name: { $code } shows as nothing or changes the text around it; use letters, digits, _ and -
account-name-character = name: { $character } is not allowed; use letters, digits, _ and -
account-name-no-letter = name: needs at least one letter
account-name-alphabets = name: mixes letters of different alphabets (such as Latin and Cyrillic)
account-name-reserved = name: { $name } is kept for the site; choose another
account-password-length = password: { $least } to { $most } characters
account-too-many-logins = too many log-in attempts { $whose ->
        [name] for this name from your address
       *[address] from your address
    } (at most { $most } a minute); wait a minute and try again
account-too-many-logins-spread = too many log-in attempts for this name from many addresses; log in from an address you used before, or wait an hour
account-too-many-signups = too many new accounts from your address (at most { $most } a minute); wait a minute and try again

## The start page

home-new-game = New game
home-play = Play
home-mode-engine = Against the engine
home-mode-friend = Against a friend (invite link)
home-mode-local = Two people at one screen
home-game = Game
home-variant-bashni = Bashni (towers)
home-variant-russian = Russian draughts
home-level = Engine level
home-colour = Your colour
home-colour-white = White
home-colour-black = Black
home-colour-random = Random
home-clock = Clock
home-correspondence = Correspondence (days per move)
home-days =
    { $days ->
        [one] { $days } day
       *[other] { $days } days
    }
home-days-per-move = Days per move
home-days-per-move-hint = Each move may take this long. Time not used does not carry over.
home-your-name = Your name
home-first-player-name = First player's name (White)
home-second-player = Second player
home-second-player-name = Second player's name
home-account-name = The name of your account.
home-rated = Rated
home-start = Start the game
home-pdn-title = Open game records (PDN)
home-pdn-file = PDN file
home-pdn-paste = Or paste PDN text here
home-pdn-upload = Upload
home-pdn-nothing = Choose a file or paste PDN text.
home-pdn-none-found = No games found in the text.
home-pdn-game = Game { $number }
home-pdn-game-error = Game { $number }: { $error }
home-pdn-unreadable = cannot be read
home-your-games = Your games
home-your-games-none = None yet.
home-live-games = Live games
home-live-games-none = No game is being played now.
home-finished-games = Finished games
home-finished-games-none = No games yet.
home-records = Game records
home-records-none = No records uploaded yet.
home-loading = Loading…
home-more = More
home-lobby-title = Play someone now
home-lobby-text = Find an opponent in the lobby: accept a seek, or post your own.
home-lobby-link = Go to the lobby
home-study-title = Study
home-study-text = Set up any position, build towers, play through variations and ask the engine.
home-study-link = Open the study board

## A game in a list

game-item-white = White
game-item-black = Black
game-item-in-play = in play
game-item-aborted = aborted
game-item-moves =
    { $moves ->
        [one] { $moves } move
       *[other] { $moves } moves
    }

## Game page (game.js, state.js, socket.js, text.js)

# Shared words (text.js)
text-white = White
text-black = Black
text-white-man = white man
text-white-king = white king
text-black-man = black man
text-black-king = black king
text-tower-empty = { $square }: empty
# $checkers: the tower's checkers, or "tower of …"
text-tower = { $square }: { $checkers }
text-tower-of = tower of { $count }, { $checkers } (top first)
text-level-name =
    { $level ->
        [1] beginner
        [2] novice
        [3] casual
        [4] club
        [5] strong club
        [6] expert
        [7] master
       *[8] full strength
    }
text-no-clock = No clock
text-clock-preset = { $minutes } min + { $seconds } s
# Why a game ended. $side: white or black; $pieces: pieces on the board; $moves: the moves the rule counts (or "none").
reason-no-move = { $side ->
        [white] White has
       *[black] Black has
    } no move
reason-resignation = { $side ->
        [white] White
       *[black] Black
    } resigned
reason-time = { $side ->
        [white] White
       *[black] Black
    } ran out of time
reason-agreement = draw by agreement
reason-repetition = threefold repetition
reason-quiet-moves = 15 moves without capture or promotion (1.13)
reason-lone-king = 6.1.8.4: three or more pieces against a lone king, 15 moves
reason-big-road = 6.1.8.5: three pieces off the big road against a king on it, 5 moves
reason-king-ending = { $moves ->
        [none] 6.1.8.6: kings on both sides, { $pieces } pieces
       *[other] 6.1.8.6: kings on both sides, { $pieces } pieces, { $moves } moves without capture or promotion
    }
reason-king-moves-only = { $moves ->
        [none] 6.1.8.8: { $pieces } pieces, kings only
       *[other] 6.1.8.8: { $pieces } pieces, { $moves } moves with kings only and no capture
    }
reason-aborted = Aborted before both sides had moved
reason-abandoned = { $side ->
        [white] White
       *[black] Black
    } left the game
# $reason: the server's words
text-result-aborted = Aborted. { $reason }
text-result-white-wins = { $score } White wins. { $reason }
text-result-black-wins = { $score } Black wins. { $reason }
text-result-draw = { $score } Draw. { $reason }
text-variant-bashni = Bashni
text-variant-russian = Russian draughts
text-mode-engine = against the engine
text-mode-friend = with a friend
text-mode-local = at one screen
text-mode-record = record
text-per-move =
    { $days ->
        [one] { $days } day
       *[other] { $days } days
    } per move
text-left-none = no time left
text-left-days =
    { $days ->
        [one] { $days } day
       *[other] { $days } days
    } left
text-left-days-hours =
    { $days ->
        [one] { $days } day
       *[other] { $days } days
    } { $hours } h left
text-left-hours-minutes = { $hours } h { $minutes } min left
text-left-hours = { $hours } h left
text-left-minutes = { $minutes } min left
text-left-under-minute = less than a minute left
# White's score when the engine sees a win; $moves: the winner's moves, "White wins in 4".
text-score-white-wins-in = White wins in { $moves }
text-score-black-wins-in = Black wins in { $moves }

# The game's status (state.js)
state-aborted = The game was aborted.
state-over = The game is over.
state-record-to-move =
    A recorded game. { $colour ->
        [white] White
       *[black] Black
    } to move.
state-waiting-opponent-join = Waiting for your opponent to join.
state-waiting-second-player = Waiting for the second player.
state-your-move =
    Your move ({ $colour ->
        [white] white
       *[black] black
    }).
state-waiting-opponent-move = Waiting for your opponent’s move.
state-to-move =
    { $colour ->
        [white] White
       *[black] Black
    } to move.
state-tab-title = { $white } – { $black } – Bashni
state-tab-your-move = ● Your move – { $title }
# For screen readers: "Black: f6:d4:b2, takes e5, c3, crowned."
state-move-announcement =
    { $colour ->
        [white] White
       *[black] Black
    }: { $move }{ $takes ->
        [none] {""}
       *[other] , takes { $takes }
    }{ $crowned ->
        [yes] , crowned
       *[no] {""}
    }.

# The connection (socket.js)
socket-no-answer = The server did not answer.
socket-connection-lost = The connection was lost.
socket-connection-lost-check = The connection was lost. Check the move list before you try again.

# The game page (game.js)
game-title = Game
game-capture-forced-choose = Capture is forced: choose a tower that can capture.
game-tower-cannot-move = That tower cannot move now.
game-no-legal-move-there = No legal move goes there.
game-premove = Premove { $from }–{ $to }: played when your turn comes, if it is legal then. Click the board to cancel it.
game-premove-dropped = The premove is not legal now; it was dropped.
game-connection-lost = Connection lost. Trying again…
game-inspector-hint = Point at a tower (or tap and hold) to see what it is made of.
game-capture-forced = Capture is forced.
game-draw-declined = Your draw offer was declined.
game-engine-thinking = The engine is thinking…
game-move-placeholder = Type a move, e.g. c3-d4
game-move-label = Move
game-play = Play
game-nav-first-title = Start (Home)
game-nav-first = « Start
game-nav-prev-title = Back (←)
game-nav-prev = ‹ Back
game-nav-next-title = Forward (→)
game-nav-next = Next ›
game-nav-last-title = Now (End)
game-nav-last = Now »
game-claim-question = { $move } puts the same position on the board for the third time. You may claim a draw with this move (rule 1.13.2).
game-claim-with-move = Play it and claim a draw
game-play-without-claim = Just play it
game-cancel = Cancel
game-chooser-title =
    { $ways ->
        [1] One way
        [2] Two ways
        [3] Three ways
        [4] Four ways
        [5] Five ways
       *[other] { $ways } ways
    } to capture to { $square } — choose:
game-show-way-title = Show this way on the board
game-show-way-label = Show { $move } on the board
game-show-way = show
game-jumps = jumps { $squares }
game-go-on-through = Go on through { $square }
game-watch-only = You only watch this game.
# The title: "Bashni, with a friend (rated)"
game-heading = { $variant }, { $mode }
game-heading-rated = { $variant }, { $mode } ({ $rated })
game-tournament-game = tournament game
game-the-tournament = The tournament
game-tournament-round = { $name }, round { $round }
game-player-waiting = (waiting for a player)
game-player-you = (you)
game-online = online
game-offline = offline
game-player-to-move = • to move
# $per: "3 days per move"
game-correspondence = Correspondence, { $per }.
game-correspondence-waiting = Correspondence, { $per }. The time starts when both players are in.
game-deadline =
    { $colour ->
        [white] White
       *[black] Black
    } to move: { $left } ({ $per }).
game-deadline-until = Until { $date }
game-first-move =
    { $who ->
        [you] You have
        [white] White has
       *[black] Black has
    } { $seconds } s for the first move, { $missed ->
        [loses] or loses the game
       *[aborted] or the game is aborted
    }.
game-view-start = You look at the start position. Press End to go back to the game.
game-view-after = You look at the position after move { $number } { $move }. Press End to go back to the game.
game-move-title = Show the position after this move
game-abort = Abort the game
game-resign = Resign
game-resign-side =
    Resign ({ $colour ->
        [white] white
       *[black] black
    })
game-resign-confirm = Yes, resign
game-resign-cancel = No
game-draw-offer-button = Offer a draw
game-draw-offer =
    { $colour ->
        [white] White
       *[black] Black
    } offers a draw.
game-draw-offered = You offered a draw.
game-draw-offered-waiting = You offered a draw. Waiting for the answer.
game-draw-accept = Accept the draw
game-decline = Decline
game-draw-agreed = The draw is agreed.
game-draw-engine-declines = The engine does not accept the draw.
# $reason: the server's words
game-draw-claim-reason = Claim a draw: { $reason }
game-take-back = Take back
game-flip = Flip board
game-analyse = Analyse
game-analysis-board = Analysis board
game-record-notes = This record has comments or variations: the analysis board shows them.
game-download-pdn = Download PDN
game-picture-svg = Picture (SVG)
game-invite-link-label = Invite link
game-invite-link-text = Send this link to your friend:
game-copy-invite-link = Copy invite link
game-watch-link-label = Watch link
game-watch-link-text = Link to watch:
game-copy-watch-link = Copy watch link
game-claim-win = Claim the win
game-claim-draw = Claim a draw
game-abandon-left-wait = { $name } left the game. If they do not come back, you can claim the win in { $seconds } s.
game-abandon-left-now = { $name } left the game. You can claim the win or a draw now.
game-abandon-offline-wait = { $name } is offline. { $other } can claim the game in { $seconds } s.
game-abandon-offline-now = { $name } is offline. { $other } can claim the game now.
game-back-to-tournament = Back to the tournament
game-next-game-wait = Your next game appears here when it is paired.
game-next-game-ready = Your next game is ready: play it
game-tournament-finished = The tournament has finished.
game-rematch = Rematch (colours swapped)
game-rematch-go = Go to the rematch
game-rematch-offered = You offered a rematch. Waiting for the answer.
game-rematch-offer =
    { $colour ->
        [white] White
       *[black] Black
    } offers a rematch with colours swapped.
game-rematch-accept = Accept the rematch
game-new-like-this = New game like this
game-position-as-text = The position as text
game-position-side =
    { $colour ->
        [white] White
       *[black] Black
    } ({ $count })
game-engine-view = Engine view
game-analyse-again = Analyse again
game-analyse-each = Analyse each move
game-open-in-study = Open in the study board
game-analysis-close = Close
game-thinking-about = Thinking about: { $position }
game-no-such-game = No such game
game-start-new = Start a new game
## Lobby, tournaments, ratings, players (lobby.js, seeks.js, tournaments.js, ratings.js, rating-chart.js, player.js, your-turn.js, account-seat.js)

lobby-title = Lobby – Bashni
lobby-connecting = Connecting…
lobby-connection-lost = Connection lost. Connecting again… Your seeks were removed.
lobby-connection-lost-retry = The connection was lost. Try again.
lobby-no-answer = The server did not answer.
lobby-not-connected = Not connected. Wait a moment and try again.
lobby-press-play = Press Play to accept a seek, or post your own.
# $clocks: the clocks of the player's seeks, "5+3, 10+5".
lobby-waiting = Waiting for an opponent ({ $clocks }). Keep this page open.
lobby-paired = A game is ready. You play { $colour ->
        [white] white
        [black] black
       *[other] { $colour }
    }.
lobby-col-player = Player
lobby-col-game = Game
lobby-col-clock = Clock
lobby-col-type = Type
lobby-col-colour = Plays as
lobby-col-action = Action
lobby-cancel = Cancel
lobby-play = Play
lobby-guest = Guest
lobby-you = (you)
# A seek on one line: "Bashni, 5+3, Rated, plays White".
lobby-seek-summary = { $variant }, { $clock }, { $type }, plays { $colour ->
        [white] White
        [black] Black
       *[other] Random
    }
lobby-no-seeks = No open seeks. Post one, or use quick pairing.
lobby-quick = Quick pairing
lobby-quick-hint = Play the first player who waits with this clock, or wait for one.
lobby-clock-option = { $minutes } min + { $increment } s
lobby-post-title = Post a seek
lobby-post = Post the seek
lobby-rated-check = Rated (log in first)
lobby-open-seeks = Open seeks
lobby-live = Live games to watch

tournaments-title = Tournaments – Bashni
tournaments-none = None.
tournaments-open = Open
tournaments-running = Playing now
tournaments-finished = Finished
tournaments-log-in = Log in
# Follows the link "Log in".
tournaments-log-in-to-make = { "" } to make or join a tournament.
tournament-title = { $name } – Bashni
tournament-system = System
tournament-system-round-robin = Round robin
tournament-system-swiss = Swiss
tournament-rounds-count = { $rounds } rounds
tournament-micro = micro-matches
tournament-clock = { $minutes } min + { $increment } s
tournament-no-clock = no clock
tournament-tiebreak-sb-short = SB
tournament-tiebreak-sb = Sonneborn-Berger
tournament-tiebreak-buchholz-short = Buch.
tournament-tiebreak-buchholz = Buchholz
tournament-tiebreak-median-short = Med.
tournament-tiebreak-median = Median Buchholz
tournament-tiebreak-wins-short = Wins
tournament-tiebreak-wins = Games won
tournament-playing = playing
tournament-status-open = Open: players can join.
tournament-status-running = Round { $round } of { $rounds } is being played.
tournament-status-finished = Finished.
# $description: what the tournament is, "Bashni, round robin, 8 min + 4 s".
tournament-item-meta = { $description } · { $players } players · by { $creator }
tournament-made-by = { $description } · made by { $creator }
tournament-variant-bashni = Bashni
tournament-variant-russian = Russian draughts
tournament-rounds = Rounds
tournament-micro-check = Micro-matches: two games on a drawn opening
tournament-new = New tournament
tournament-name = Name
tournament-create = Make the tournament
tournament-round = Round { $round }
tournament-pairing = { $white } – { $black }
tournament-pairing-leg = { $white } – { $black } (game { $leg })
tournament-bye = { $name } has a bye (a win).
tournament-place = Place
tournament-player = Player
tournament-points = Points
tournament-wins-draws-losses = W-D-L
tournament-leave = Leave
tournament-join = Join
tournament-start = Start
tournament-log-in-to-join = Log in to join
tournament-missing = No such tournament
tournament-cannot-show = The page cannot be shown
tournament-players = Players ({ $count })
tournament-standings = Standings
tournament-points-rule = Points: { $win } for a win, { $draw } for a draw, { $loss } for a loss.
tournament-crosstable = Crosstable
tournament-download = Download all games (PDN)

player-game-rated = , rated: { $rating } ({ $diff })
player-game-casual = , casual
ratings-chart-point = { $rating } on { $date }
ratings-chart-dates = { $from } – { $to }
ratings-rated = Rated
ratings-casual = Casual
ratings-not-rated =
    { $reason ->
        [same-address] Not rated: both players play from one address, and such games do not count.
        [aborted] Not rated: the game was aborted.
        [a-guest-seat] Not rated: one of the players is a guest.
       *[other] Not rated ({ $phrase })
    }
# $white, $black: the ratings after the game; $whiteDiff, $blackDiff: their changes, "+12", "−12".
ratings-change = White { $white } ({ $whiteDiff }), Black { $black } ({ $blackDiff })
ratings-chart = Rating after each game
# $variant: the game's name; $pace: blitz, rapid, classical or correspondence.
ratings-row-title = { $variant }, { $pace ->
        [blitz] blitz
        [rapid] rapid
        [classical] classical
       *[correspondence] correspondence
    }
ratings-games = ({ $games ->
        [one] { $games } game
       *[other] { $games } games
    })
ratings-title = Ratings
ratings-none = No rated games yet.
ratings-provisional-hint = ? means the rating is not sure yet (few games).
leaderboard-title = Leaderboard – Bashni
leaderboard-player = Player
leaderboard-rating = Rating
leaderboard-games = Games
leaderboard-tab = { $variant } { $pace ->
        [blitz] Blitz
        [rapid] Rapid
        [classical] Classical
       *[correspondence] Correspondence
    }
leaderboard-hint = Players with a sure rating first; ? marks a rating that is not sure yet.

player-title = { $name } – Bashni
player-col-game = Game
player-col-won = Won
player-col-drawn = Drawn
player-col-lost = Lost
player-log-out-everywhere = Log out everywhere
player-log-out-everywhere-hint = Log out on every device and browser where you are logged in:
player-delete-title = Delete the account
player-delete-hint = This cannot be undone. Your games stay and show "deleted player". The name { $name } stays reserved, so nobody else can take it.
player-password = Your password
player-delete = Delete my account
player-your-account = Your account
# Added to a game in the player's list: the colour the player had.
player-played = , played { $colour ->
        [white] White
        [black] Black
       *[other] { $colour }
    }
player-no-games = No games yet.
# $date: the day the account was made, "1 March 2026".
player-since = Member since { $date }.
player-results = Results
player-results-hint = Games against people that ended with a result.
player-recent-games = Recent games
player-missing = No such player
player-missing-text = There is no player with this name.
player-cannot-show = The page cannot be shown

your-turn-title = Your turn
your-turn-none = No game waits for your move.
your-turn-with-clock = with a clock
your-turn-against = Your move against { $opponent }
your-turn-against-someone = Your move against your opponent
# $pace: "3 days per move" or "with a clock"; $move: the move's number; $colour: the player's colour.
your-turn-meta = { $variant }, { $pace }, move { $move } ({ $colour ->
        [white] white
        [black] black
       *[other] { $colour }
    })
your-turn-until = Until { $date }
## Study, analysis, chat, accounts (study.js, analysis-board.js, analysis.js, tree.js, chat.js, join.js, login.js, account.js, board.js, towers.js, dom.js, api.js, sound.js)

study-page-title = Study board – Bashni
study-heading = Study board
study-board-label = Study board. Arrow keys move over the squares, Enter puts the chosen checker there.
study-inspector-hint = Click a square to add a checker to the bottom of its tower.
study-side-to-move = Side to move
study-white-to-move = White to move
study-black-to-move = Black to move
study-brush = Brush
study-brush-white-man = White man
study-brush-white-king = White king
study-brush-black-man = Black man
study-brush-black-king = Black king
study-brush-pop = Remove top
study-brush-erase = Clear square
study-brush-hint = A checker goes to the bottom of the tower, so build each tower from the top down.
study-start-position = Start position
study-empty-board = Empty board
study-position = Position
study-paste-position = Paste a position in any notation
study-set-up = Set up
study-engine-view = Engine view
study-analyse = Analyse
study-analysis-board = Analysis board
study-play-from-here = Play from here
study-need-position = Set up an allowed position first.

analysis-page-title = Analysis board – Bashni
analysis-heading = Analysis board
analysis-board-label = Analysis board. Arrow keys move over the squares, Enter picks a tower and drops it.
analysis-no-move-there = No legal move goes there.
analysis-start-page = Start page
analysis-after-game = The analysis board opens for this game when it has ended.
analysis-variation-lost = A variation of the record could not be shown: { $error }
analysis-inspector-hint = Point at a tower to see what it is made of.
analysis-white = White
analysis-black = Black
analysis-title-game = { $variant }: { $white } – { $black }
analysis-title-position = { $variant }, a position
analysis-first = « Start
analysis-first-title = Start (Home)
analysis-prev = ‹ Back
analysis-prev-title = Back (←)
analysis-next = Next ›
analysis-next-title = Forward (→)
analysis-last = End »
analysis-last-title = End of the line (End)
analysis-engine = Engine
analysis-promote = Make main line
analysis-delete = Delete from here
analysis-graph = Evaluation graph
analysis-position = Position
analysis-announce =
    { $colour ->
        [black] Black
       *[white] White
    }: { $move }.
analysis-picture-png = Picture (PNG)
analysis-picture-svg = Picture (SVG)
analysis-game-gif = The game (GIF)
analysis-game-pdn = The game (PDN)
analysis-engine-off = The engine is off.
analysis-thinking = Thinking…
analysis-game-over = No legal move: the game is over here.
analysis-play-line = Play this line on the board
analysis-scores-hint =
    Scores are for White, in men; { $turn ->
        [black] Black
       *[white] White
    } to move.
analysis-depth = depth { $depth }
analysis-summary = Depth { $depth }, { $nodes } positions. Scores are in men (1.00 = one man); plus is good for the side named.
analysis-score-for =
    for { $turn ->
        [black] Black
       *[white] White
    }
analysis-score-for-black = for Black ({ $white } for White)
analysis-play-line-on-board = Play this line on the analysis board
analysis-eval-label = Evaluation for White: { $score }
analysis-no-eval = No evaluation yet
analysis-graph-label = Evaluation over the game

chat = Chat
chat-watchers-chat = Watchers’ chat
chat-room-players = Players
chat-room-watchers = Watchers
chat-placeholder = Write a message
chat-message = Message
chat-your-name = Your name
chat-your-name-label = Your name in the chat
chat-send = Send
chat-none-players = No messages between the players yet.
chat-none-watchers = No messages from watchers yet.
chat-only-watchers = Only watchers write here.
chat-mute = Mute { $name }
chat-unmute = Unmute { $name }
chat-mute-opponent = Mute your opponent
chat-unmute-opponent = Unmute your opponent

join-page-title = Join a game – Bashni
join-invited = You are invited to a game
join-cannot = This invite cannot be used
join-your-name = Your name
join-button = Join the game
join-watch = Only watch the game
join-have-seat = You already have a seat in this game.
join-go-to-game = Go to the game
join-a-player = A player
join-invites =
    { $name } invites you to play { $variant }. You play { $colour ->
        [black] black
       *[white] white
    }.
join-invites-per-move =
    { $name } invites you to play { $variant }, { $perMove }. You play { $colour ->
        [black] black
       *[white] white
    }.
join-no-game = No such game
join-link-wrong = The invite link is wrong, or the game is gone.
join-new-game = Start a new game
join-seat-taken = The seat is already taken. { $error }

login-page-title = Log in – Bashni
login-title = Log in
login-submit = Log in
login-name = Name
login-password = Password
login-new-account = New account
login-name-hint = 3 to 20 letters or digits; also _ and -. Others see it with your games.
login-password-hint = At least 8 characters.
login-password-again = Password again
login-make-account = Make the account
login-passwords-differ = The two passwords are not the same.
login-without-account = You can play without an account. With one, your games and results are kept on your page.
login-logged-in-as = You are logged in as { $name }.

account-log-in = Log in
account-log-out = Log out
account-player = Player account
account-deleted = deleted player

board-label = Board. Arrow keys move over the squares, Enter picks a tower and drops it.
board-role = draughts board

dom-copied = Copied.
dom-copy-by-hand = Select the link and copy it.

api-unreachable = Cannot reach the server.
api-status = The server answered { $status }.

## Rules page (rules.js)

rules-page-title = Rules – Bashni
rules-heading = Rules
rules-intro = Two games are played here: Russian draughts and Bashni, draughts with towers. Bashni is Russian draughts in which a captured checker is not taken off the board, so read the rules of Russian draughts first and then what Bashni changes. Every rule has a small board: press “Show” to see its move, or make a move on it yourself.
rules-contents = The games
rules-russian-heading = Russian draughts
rules-bashni-heading = Bashni
rules-russian-intro = The board has 8 × 8 squares, and only the 32 dark ones are used; the dark corner a1 is on White’s left. Each side starts with 12 men on the dark squares of its three nearest rows: White on rows 1 to 3, Black on rows 6 to 8. White moves first, then the players take turns.
rules-bashni-intro = Bashni starts like Russian draughts and moves the same way: men and kings, compulsory capture with a free choice between captures, crowning during a capture. The difference is that captured checkers never leave the board: they are taken prisoner.
rules-show = Show
rules-again = Start again
rules-try = Press “Show”, or make a move yourself.
# $rule: the rule's title.
rules-board-label = Board for the rule “{ $rule }”
rules-played = Played: { $move }.
# $winner: white or black.
rules-outcome-win = { $winner ->
    [white] Black has no move: White wins.
   *[black] White has no move: Black wins.
}
rules-draws-heading = Draws

rules-man-moves-title = How a man moves
rules-man-moves-text = A man moves one square diagonally forward, onto a free square. Here White plays c3-d4.
rules-crowning-title = A man becomes a king
rules-crowning-text = A man that reaches the far row (row 8 for White, row 1 for Black) becomes a king. If it gets there by an ordinary move, the move ends there. Here c7-d8 makes a king.
rules-king-moves-title = How a king moves
rules-king-moves-text = A king moves diagonally forward or backward across any number of free squares: it flies. It cannot jump over pieces of its own side. Here the king goes from c1 to h6 in one move.
rules-capture-compulsory-title = Capturing is compulsory
rules-capture-compulsory-text = A man takes an enemy piece next to it on a diagonal by jumping over it to the free square just behind; the piece taken leaves the board. Whoever can capture must capture. When there are several captures, you may choose any of them, however many pieces it takes. Here White could take two pieces with e3:g5:e7, but chooses e3:c5 and takes one; the quiet move a1-b2 is not allowed.
rules-capture-backwards-title = Men capture backward too
rules-capture-backwards-text = A man moves only forward, but it captures both forward and backward. Here the man on e5 takes d4 backward: e5:c3.
rules-capture-several-title = Several pieces in one move
rules-capture-several-text = If after a jump the piece can take again, it must go on in the same move, turning if needed, until there is nothing more to take. It may not stop halfway. Here c1:e3:g5:e7 takes three pieces.
rules-king-captures-title = How a king captures
rules-king-captures-text = A king takes an enemy piece at any distance along a diagonal if there is a free square behind it, and may land on any free square behind it. But if from some of those squares it can capture again, it must land on one of them and go on. Here the king takes d4, must stop on f6, and then takes g5: a1:f6:h4.
rules-turkish-strike-title = The “Turkish strike”
rules-turkish-strike-text = The pieces taken leave the board only when the whole capture is over. Until then they stay where they are: none may be jumped twice, and they block the way. Here the king takes four pieces, e1:a5:d8:f6:d4, and must stop on d4: c3 has been jumped already, and c5 cannot be taken because b6, taken earlier, still stands behind it.
rules-crowned-in-capture-title = Crowned during a capture
rules-crowned-in-capture-text = A man that reaches the far row during a capture becomes a king at once and, if it can, goes on capturing as a king in the same move. Here b6:d8:h4: on d8 the man becomes a king and takes f6 from a distance.
rules-russian-win-title = How the game is won
rules-russian-win-text = You win when your opponent cannot move: all their pieces have been taken, or the ones left are blocked. (A player may also resign.) Here after a3-b4 the black man on a5 can neither move nor capture.

rules-draw-agreed-russian = The players agree to a draw. A draw may be offered once each side has made at least 20 moves.
rules-draw-repetition = The same position, with the same side to move, appears for the third time.
rules-draw-lone-king = Three or more pieces against a lone king (for example three kings that hold the big road a1-h8): if the stronger side has not taken the king with its 15th move, the game is drawn.
rules-draw-big-road = Three pieces, none of them on the big road a1-h8, against a lone king on the big road: drawn if the stronger side has not taken the king with its 5th move.
rules-draw-kings-balance = Both sides have kings and nothing is captured or crowned: drawn after 5 moves with 2 or 3 pieces on the board, after 30 moves with 4 or 5, after 60 moves with 6 or 7.
rules-draw-kings-only = Only kings are moved, no man moves and nothing is captured: drawn after 15 moves with 4 or 5 pieces on the board, after 25 moves with 6 or 7.
rules-draw-counting = Moves are counted for each side: 15 moves means 15 by White and 15 by Black (where the stronger side is named, its own moves). A count starts when its position arises, and a capture or a crowning starts it again. If the move that ends a count also leaves a side without a move, the win stands. The site counts these moves and declares the draw by itself.

rules-prisoners-title = Taking prisoners
rules-prisoners-text = A captured checker is not taken off the board: it goes under the piece that captured it, as a prisoner. This is how towers grow. Here c3:e5 puts the black checker under the white one.
rules-tower-moves-title = A tower obeys its top checker
rules-tower-moves-text = A tower is a stack of checkers on one square. It belongs to the side whose checker is on top and moves like that checker: one square forward with a man on top, flying with a king on top. A tower always moves whole, prisoners and all. Here the white tower with two black prisoners plays c3-d4.
rules-top-taken-title = Only the top is taken
rules-top-taken-text = A capture takes only the top checker of the tower jumped. The rest stays on its square and belongs to the side whose checker is now on top: the tower changes hands. Here c3:e5 takes the black checker off d4; the two white checkers under it are free, and d4 is White’s again.
rules-king-freed-title = A king inside a tower
rules-king-freed-text = A captured king stays a king under the tower, but it has no say there. Once freed, it moves as a king again. Here White takes the black man off d4, and the white king under it is free.
rules-tower-captures-several-title = Several prisoners in one move
rules-tower-captures-several-text = In a multiple capture each checker goes under the capturing tower at once, jump by jump, in the order taken. So the same tower may be jumped again later in the move while an enemy checker is still on top of it, but never straight back on the very next jump. Here c3:e5:c7:a5:c3:e5 jumps d4 twice and takes five prisoners. Going round the other way, c3:a5:c7:e5:c3 has to stop on c3: jumping d4 again would mean going straight back.
rules-tower-crowning-title = A tower is crowned
rules-tower-crowning-text = When a tower reaches the far row, only its top checker becomes a king; the checkers below stay as they were. Here c7-d8 crowns the top, and the white man under it stays a man.
rules-bashni-win-title = How the game is won
rules-bashni-win-text = Nothing ever leaves the board, so you win by taking the top of every enemy tower or by blocking them: the side that cannot move loses. Here c3:e5 takes the last black top; d4 becomes White’s, and Black has nothing left to move.

rules-draw-agreed = The players agree to a draw.
rules-draw-repetition-towers = The same position (every tower with all its checkers, and the same side to move) appears for the third time.
rules-draw-fifteen-moves = Each side has made 15 moves in which nothing was captured and nothing was crowned.
rules-draw-claimed = These last two are not automatic: the player to move claims the draw, and the game page offers the claim when it can be made.

# The first-game hint and the rules links of the other pages.
nav-rules = Rules
home-rules-title = New to the game?
home-rules-text = How the pieces move and capture, with a board for each rule.
home-rules-link = Read the rules
game-rules-link = { $variant ->
    [bashni] Rules of Bashni
   *[russian] Rules of Russian draughts
}
first-game-hint-title = Your first game
first-game-hint-move = To move, click or tap one of your pieces and then the square it should go to, or drag it there.
first-game-hint-capture = Capturing is compulsory: if you can take, you must.
first-game-hint-dismiss = Got it
rules-big-road-draw-title = A draw: the king on the big road
rules-big-road-draw-text = Three white kings against one black king that holds the big road a1-h8 cannot catch it: the king only runs along the road. When the stronger side has not taken the king by its 5th move, the game is drawn (6.1.8.5). Here Black plays d4-h8.
rules-quiet-draw-title = A draw: 15 quiet moves
rules-quiet-draw-text = Only kings are left, and neither can take the other. When each side has made 15 moves with nothing captured and nothing crowned, the player to move may claim a draw (1.13). Here White plays c1-h6, one of those quiet moves.

## The puzzle trainer (`/puzzles`) and the daily puzzle on the start page.
nav-puzzles = Puzzles
home-daily-puzzle = Puzzle of the day
home-daily-puzzle-alt = The puzzle of the day in { $variant }
home-puzzles-link = Solve more puzzles
puzzles-page-title = Puzzles · Bashni
puzzles-heading = Puzzles
puzzles-board-label = Puzzle board
puzzles-find-white = Find the best move for White
puzzles-find-black = Find the best move for Black
puzzles-no-move-there = No move there.
puzzles-move-unknown = { $move } cannot be played here.
puzzles-right-go-on = Right! Keep going.
puzzles-solved = Solved!
puzzles-wrong = { $move } is not the move.
puzzles-gave-up = The solution:
puzzles-solution = Solution: { $line }
puzzles-show-solution = Show the solution
puzzles-next = Next puzzle
puzzles-another = Another puzzle
puzzles-none-left = No puzzle left for this game and theme.
puzzles-your-rating = Your puzzle rating: { $rating }
puzzles-about = { $variant }, puzzle rating { $rating }. Themes: { $themes }
puzzles-game = Game
puzzles-theme = Theme
puzzles-any-theme = Any theme
puzzles-theme-sacrifice = Sacrifice
puzzles-theme-breakthrough = Breakthrough
puzzles-theme-crowning-capture = Crowning in a capture
puzzles-theme-long-diagonal = The long diagonal
puzzles-theme-tables = Endgame (tables)
puzzles-theme-frees-prisoners = Freeing prisoners
puzzles-theme-captures-king = Capturing a king
puzzles-theme-tower-changes-hands = A tower changes hands
