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
