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
